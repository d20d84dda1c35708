// The placement seam, as the places a child may run build on it (a queue and its workers, an A2A
// client, `agentry serve`): the child's spec, the placement and executor contracts, the activation kit,
// and the parts that turn a spec into a running child on a host.

export {
  buildChild,
  type ChildCommandsInput,
  type ChildHost,
  childFromSpec,
} from "./child/child-from-spec.ts";
export { type LoopChildSpec, loopChildSpecSchema, type RemoteChildSpec } from "./child/child-spec.ts";
export {
  type ChildWorkspace,
  prepareChildWorkspace,
  trustedLayout,
  workspaceOptions,
} from "./child/child-workspace.ts";
export { git, gitSucceeds } from "./child/git.ts";
export type { LocalChild } from "./child/local-child.ts";
export {
  activationOutcome,
  GO_ON_AFTER_INTERRUPT,
  InterruptibleStep,
  Mailbox,
} from "./run/activation-kit.ts";
export type { ChildPlacement } from "./run/child-placement.ts";
export type {
  Activation,
  ActivationInput,
  ActivationRef,
  ActivationResult,
  ChildExecutor,
  FollowInput,
} from "./run/executor.ts";
export { inProcessExecutor } from "./run/in-process-executor.ts";
export { Semaphore } from "./run/semaphore.ts";
export type { SpawnKit } from "./spawn/spawn-kit.ts";
export type { DescendantCount } from "./tree/descendant-count.ts";
