import type {
  ModelServer,
  ModelServerOptions,
  RecordedRequest,
  ServerStep,
} from "../../test/support/model-server.ts";

/** What a scripted server module builds from its JSON arguments (see `server-main.ts`). */
export interface ServerScript {
  step: ServerStep;
  /** The server's options, e.g. a `capacity` fault (its limits, its 429s). */
  options?: ModelServerOptions;
  /**
   * What the benchmark wants to know about the requests (and the server: its capacity fault's
   * refusals), once the run is over (JSON-serializable).
   */
  summary(requests: RecordedRequest[], server: ModelServer): unknown;
}
