import { randomUUID } from "node:crypto";
import { Role, TaskState } from "@a2a-js/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { A2aServer } from "../../src/remote/serve/a2a-http-server.ts";
import { SERVED_AGENTS_EXTENSION } from "../../src/remote/serve/served-card.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { SERVE_TOKEN, sdkClientFactory, serveScripted } from "../support/a2a-serve.ts";

/**
 * Where a client finds the cards: each agent's URL as printed (ending in "/") taken as it is by the
 * official SDK's `createFromUrl`, and the server's root, where A2A recommends a card be, giving the
 * default agent's card with the others listed.
 */
const servers: A2aServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const AGENTS = ["explore", "general-purpose", "plan"];

async function serve(defaultAgent?: string, publicCards?: boolean): Promise<A2aServer> {
  const model = scriptedModel([{ text: "answered" }]);
  const server = await serveScripted(model, {
    agents: AGENTS,
    ...(defaultAgent === undefined ? {} : { defaultAgent }),
    ...(publicCards === undefined ? {} : { publicCards }),
  });
  servers.push(server);
  return server;
}

function send(text: string) {
  return {
    tenant: "",
    message: {
      messageId: randomUUID(),
      contextId: randomUUID(),
      taskId: "",
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: "text" as const, value: text },
          metadata: undefined,
          filename: "",
          mediaType: "",
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  };
}

describe("agentry serve's cards", () => {
  it("each agent's URL works as it is with the SDK's createFromUrl: its own card, its own endpoint", async () => {
    const server = await serve();
    for (const name of AGENTS) {
      const url = server.agentUrl(name);
      expect(url.endsWith("/")).toBe(true);
      const client = await sdkClientFactory(SERVE_TOKEN).createFromUrl(url);
      const card = await client.getAgentCard();
      expect(card.name).toBe(name);
      expect(card.supportedInterfaces[0]?.url).toBe(url);
    }
    const client = await sdkClientFactory(SERVE_TOKEN).createFromUrl(server.agentUrl("plan"));
    const task = await client.sendMessage(send("hello"));
    expect("id" in task && task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("the root card is general-purpose's by default and lists every agent; a client given the server's URL reaches it", async () => {
    const server = await serve();
    const client = await sdkClientFactory(SERVE_TOKEN).createFromUrl(server.url);
    const card = await client.getAgentCard();
    expect(card.name).toBe("general-purpose");
    expect(card.supportedInterfaces[0]?.url).toBe(server.agentUrl("general-purpose"));
    const listing = card.capabilities?.extensions.find((e) => e.uri === SERVED_AGENTS_EXTENSION);
    expect(listing?.required).toBe(false);
    const listed = (listing?.params?.agents ?? []) as Array<{ name: string; url: string }>;
    expect(listed.map(({ name, url }) => `${name} ${url}`).sort()).toEqual(
      AGENTS.map((name) => `${name} ${server.agentUrl(name)}`).sort(),
    );
    const task = await client.sendMessage(send("hello"));
    expect("id" in task && task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("the root card is the chosen default agent's", async () => {
    const server = await serve("plan");
    const card = await (await sdkClientFactory(SERVE_TOKEN).createFromUrl(server.url)).getAgentCard();
    expect(card.name).toBe("plan");
  });

  it("an agent URL without its trailing slash leads the SDK to a 404 that says where the cards are", async () => {
    const server = await serve();
    const bare = server.agentUrl("explore").slice(0, -1);
    await expect(sdkClientFactory(SERVE_TOKEN).createFromUrl(bare)).rejects.toThrow(/404/);
    const answer = await fetch(`${server.url}/agents/.well-known/agent-card.json`, {
      headers: { authorization: `Bearer ${SERVE_TOKEN}` },
    });
    expect(answer.status).toBe(404);
    const body = (await answer.json()) as { error: string; agents: string[] };
    expect(body.error).toContain('ends with "/"');
    expect(body.agents).toContain(server.agentUrl("explore"));
  });

  it("the SDK's default card resolver sends no token: the cards answer 401 to it", async () => {
    const server = await serve();
    const { ClientFactory } = await import("@a2a-js/sdk/client");
    await expect(new ClientFactory().createFromUrl(server.url)).rejects.toThrow(/401/);
  });

  it("a card is A2A's JSON form: the bearer scheme as httpAuthSecurityScheme, the agent as its skill", async () => {
    const server = await serve();
    const answer = await fetch(`${server.agentUrl("explore")}.well-known/agent-card.json`, {
      headers: { authorization: `Bearer ${SERVE_TOKEN}` },
    });
    const card = (await answer.json()) as Record<string, unknown>;
    expect(card.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: expect.objectContaining({ scheme: "Bearer" }) },
    });
    expect(card.skills).toEqual([expect.objectContaining({ id: "explore", name: "explore" })]);
  });

  it("with publicCards the cards answer without the token, and every call still needs it", async () => {
    const server = await serve(undefined, true);
    for (const card of [
      `${server.url}/.well-known/agent-card.json`,
      `${server.agentUrl("plan")}.well-known/agent-card.json`,
    ])
      expect((await fetch(card)).status).toBe(200);
    const client = await new (await import("@a2a-js/sdk/client")).ClientFactory().createFromUrl(server.url);
    expect((await client.getAgentCard()).name).toBe("general-purpose");
    await expect(client.sendMessage(send("hello"))).rejects.toThrow(/401/);
  });
});
