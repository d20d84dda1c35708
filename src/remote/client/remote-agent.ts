import type { AgentCard } from "@a2a-js/sdk";
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from "@a2a-js/sdk/client";
import type { AgentDefinition } from "../../agents/definition.ts";
import { RemoteAgentError } from "../remote-errors.ts";
import { fetchAgentCard } from "./agent-card.ts";
import { expandHeaders } from "./expand-headers.ts";
import { remoteFetch } from "./remote-fetch.ts";

/** How long a remote agent may take to begin an answer, unless `remote.timeoutMs` says otherwise. */
export const DEFAULT_REMOTE_TIMEOUT_MS = 30_000;

export interface RemoteAgentOptions {
  /** Where `${VARIABLE}`s in its headers come from. */
  env: Readonly<Record<string, string | undefined>>;
  /** How long a request may take to begin its answer (and a card to arrive). */
  timeoutMs?: number;
}

/**
 * One remote agent as a run sees it: its definition's URL and headers (expanded from the environment
 * on first use), its card — fetched once, then cached for the run — and an SDK client picked from the
 * card's interfaces (JSON-RPC or HTTP+JSON, v1.0 or v0.3 through the SDK's compatibility layer).
 * Failures are `RemoteAgentError`s; a failed card fetch is not cached, so a later call tries again.
 */
export class RemoteAgent {
  readonly name: string;
  readonly url: string;
  readonly timeoutMs: number;
  private readonly headers: Record<string, string> | undefined;
  private readonly env: Readonly<Record<string, string | undefined>>;
  private fetcher: typeof fetch | undefined;
  private cardPending: Promise<AgentCard> | undefined;
  private clientPending: Promise<Client> | undefined;

  constructor(address: Pick<AgentDefinition, "name" | "url" | "headers">, options: RemoteAgentOptions) {
    if (address.url === undefined) throw new Error(`agent "${address.name}" has no url`);
    this.headers = address.headers;
    this.name = address.name;
    this.url = address.url;
    this.env = options.env;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
  }

  /** The fetch that adds its headers and bounds each wait; throws when a header's variable is unset. */
  fetch(): typeof fetch {
    this.fetcher ??= remoteFetch({
      url: this.url,
      headers: expandHeaders(this.headers, this.env, this.name),
      timeoutMs: this.timeoutMs,
    });
    return this.fetcher;
  }

  card(): Promise<AgentCard> {
    this.cardPending ??= fetchAgentCard(this.url, this.fetch(), this.timeoutMs).catch((error: unknown) => {
      this.cardPending = undefined;
      throw error;
    });
    return this.cardPending;
  }

  client(): Promise<Client> {
    this.clientPending ??= this.connect().catch((error: unknown) => {
      this.clientPending = undefined;
      throw error;
    });
    return this.clientPending;
  }

  /** Whether its card says it streams (SendStreamingMessage, SubscribeToTask). */
  async streams(): Promise<boolean> {
    return (await this.card()).capabilities?.streaming === true;
  }

  private async connect(): Promise<Client> {
    const card = await this.card();
    const fetchImpl = this.fetch();
    const legacyCompat = { enabled: true };
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
        transports: [
          new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
          new RestTransportFactory({ fetchImpl, legacyCompat }),
        ],
      }),
    );
    try {
      return await factory.createFromAgentCard(card);
    } catch (error) {
      const offered = card.supportedInterfaces
        .map((i) => `${i.protocolBinding} ${i.protocolVersion}`)
        .join(", ");
      throw new RemoteAgentError(
        `the remote agent at ${this.url} offers no transport agentry speaks (it offers ${offered || "none"}; agentry speaks JSONRPC and HTTP+JSON, A2A 1.0 and 0.3)`,
        "system",
        { cause: error },
      );
    }
  }
}
