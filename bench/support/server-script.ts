import type { RecordedRequest, ServerStep } from "../../test/support/model-server.ts";

/** What a scripted server module builds from its JSON arguments (see `server-main.ts`). */
export interface ServerScript {
  step: ServerStep;
  /** What the benchmark wants to know about the requests, once the run is over (JSON-serializable). */
  summary(requests: RecordedRequest[]): unknown;
}
