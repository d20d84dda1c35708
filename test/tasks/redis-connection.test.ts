import { execFile } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import type { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { errorKind } from "../../src/errors/agentry-error.ts";
import {
  connectRedis,
  RedisUnavailableError,
  RedisUrlError,
  redisCommand,
  redisTarget,
} from "../../src/tasks/redis/redis-connection.ts";
import { TaskExistsError } from "../../src/tasks/task-errors.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { waitFor } from "../support/processes.ts";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";
import { scaled } from "../support/time-scale.ts";

/** What `redisTarget` throws for `url`. */
function refusal(url: string): RedisUrlError {
  try {
    redisTarget(url);
  } catch (error) {
    expect(error).toBeInstanceOf(RedisUrlError);
    return error as RedisUrlError;
  }
  throw new Error(`redisTarget accepted ${url}`);
}

describe("redisTarget: a Redis URL is checked before anything connects", () => {
  it("accepts redis:// and rediss://, with or without a numbered database", () => {
    expect(redisTarget("redis://127.0.0.1:6379/0").label).toBe("redis://127.0.0.1:6379/0");
    expect(redisTarget("rediss://cache.internal:6380/12").label).toBe("rediss://cache.internal:6380/12");
    expect(redisTarget("redis://cache.internal:6379").label).toBe("redis://cache.internal:6379");
  });

  it("refuses what is not a URL at all, showing the form to use; the user must fix it (exit 2)", () => {
    const error = refusal("localhost 6379");
    expect(error.message).toBe('Not a Redis URL: "localhost 6379". Use redis://host:port/db.');
    expect(error.name).toBe("RedisUrlError");
    expect(errorKind(error)).toBe("user");
  });

  it("refuses another protocol with an example, without the password", () => {
    const error = refusal("http://admin:hunter2@cache.internal:6379/0");
    expect(error.message).toBe(
      'Not a Redis URL: "http://admin:***@cache.internal:6379/0" (expected redis:// or rediss://, as in redis://127.0.0.1:6379/0).',
    );
    expect(error.message).not.toContain("hunter2");
  });

  it("refuses a URL without a host", () => {
    expect(refusal("redis:///0").message).toBe("The Redis URL redis:///0 names no host.");
  });

  it("refuses a database that is not a number, without the password", () => {
    for (const db of ["x", "a1", "1x", "0/1"]) {
      const error = refusal(`redis://:s3cret@cache.internal:6379/${db}`);
      expect(error.message).toBe(
        `The Redis URL redis://:***@cache.internal:6379/${db} names database "${db}"; use a number (/0).`,
      );
      expect(errorKind(error)).toBe("user");
    }
  });

  it("shows a password as *** in the label used by every message", () => {
    const target = redisTarget("redis://fleet:s3cret@cache.internal:6379/2");
    expect(target.label).toBe("redis://fleet:***@cache.internal:6379/2");
    expect(target.url).toBe("redis://fleet:s3cret@cache.internal:6379/2");
  });
});

describe("connectRedis: a server that is not there", () => {
  it("is a system error naming the server without its password, why, and what to do", async () => {
    const port = await closedPort();
    const error = await connectRedis(redisTarget(`redis://:s3cret@127.0.0.1:${port}/0`), {
      name: "test",
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedisUnavailableError);
    const { message, name, cause } = error as RedisUnavailableError;
    expect(message).toMatch(
      new RegExp(
        `^Cannot reach Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port}/0 \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)\\. ` +
          "Start redis-server there, or point --store, AGENTRY_REDIS_URL or fleet\\.redis at a running one\\.$",
      ),
    );
    expect(message).not.toContain("s3cret");
    expect(name).toBe("RedisUnavailableError");
    expect(errorKind(error)).toBe("system");
    // The library's own error is kept for whoever debugs it.
    expect((cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");
  });

  it("leaves nothing retrying behind and prints nothing of its own: a process that gave up exits by itself", async () => {
    const port = await closedPort();
    const connection = fileURLToPath(new URL("../../src/tasks/redis/redis-connection.ts", import.meta.url));
    const script = `
      const { connectRedis, redisTarget } = await import(${JSON.stringify(connection)});
      await connectRedis(redisTarget("redis://127.0.0.1:${port}/0"), { name: "test" }).catch((error) =>
        process.stdout.write(error.name),
      );
    `;
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--input-type=module", "--no-warnings", "-e", script],
        // A hang guard: with a client still reconnecting, the process never exits.
        { encoding: "utf8", timeout: scaled(20_000), killSignal: "SIGKILL" },
        (error, stdout, stderr) => (error ? reject(error) : resolve({ stdout, stderr })),
      );
    });
    expect(stdout).toBe("RedisUnavailableError");
    expect(stderr).toBe("");
  });
});

describeWith(REDIS, "redisCommand and the connection's options, on a real server", () => {
  let server: RedisServer | undefined;
  const clients: Redis[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.quit().catch(() => client.disconnect())));
    await server?.stop();
    server = undefined;
  });
  const open = async (role?: "blocking") => {
    server ??= await startRedisServer();
    const client = await connectRedis(redisTarget(server.url), { name: "test", ...(role && { role }) });
    clients.push(client);
    return client;
  };

  it("refuses a wrong or missing password, or a database it lacks, as the URL's fault (the user's to fix), not as a server to start", async () => {
    const client = await open();
    const url = server!.url;
    await client.config("SET", "requirepass", "right");
    for (const [given, reply] of [
      [url.replace("redis://", "redis://:wrong@"), "WRONGPASS"],
      [url, "NOAUTH"],
      // The password right, a database the server does not have (it has 16).
      [url.replace("redis://", "redis://:right@").replace(/\/0$/, "/99"), "ERR DB index is out of range"],
    ] as const) {
      const error = await connectRedis(redisTarget(given), { name: "test" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedisUrlError);
      const { message } = error as RedisUrlError;
      expect(message).toMatch(
        new RegExp(
          `^Redis at ${redisTarget(given).label.replaceAll("*", "\\*")} refused the connection \\(${reply}.*\\)`,
        ),
      );
      expect(message).toMatch(
        /check the user, the password and the database number in the URL \(redis:\/\/user:password@host:port\/db\)\.$/,
      );
      expect(message).not.toContain("wrong");
      expect(errorKind(error)).toBe("user");
    }
    expect(
      await connectRedis(redisTarget(url.replace("redis://", "redis://:right@")), { name: "test" }).then(
        (c) => {
          clients.push(c);
          return c.ping();
        },
      ),
    ).toBe("PONG");
  });

  it("passes an error reply of a running server on as it is: it does not say the server is unreachable", async () => {
    const client = await open();
    const target = redisTarget(server!.url);
    await client.set("not-a-hash", "x");
    const error = await redisCommand(target, () => client.hget("not-a-hash", "field")).catch(
      (e: unknown) => e,
    );
    expect(error).not.toBeInstanceOf(RedisUnavailableError);
    expect((error as Error).name).toBe("ReplyError");
    expect((error as Error).message).toMatch(/^WRONGTYPE/);
  });

  it("passes agentry's own errors and non-errors on unchanged; a lost connection becomes RedisUnavailableError", async () => {
    const client = await open();
    const target = redisTarget(server!.url);
    const own = new TaskExistsError("t1");
    await expect(redisCommand(target, () => Promise.reject(own))).rejects.toBe(own);
    await expect(redisCommand(target, () => Promise.reject("no reply"))).rejects.toBe("no reply");
    client.disconnect();
    await expect(redisCommand(target, () => client.get("k"))).rejects.toThrow(
      `Cannot reach Redis at ${target.label} (Connection is closed.)`,
    );
  });

  it("keeps its connection after an error reply (a watch or a blocked read on it is not dropped)", async () => {
    const client = await open();
    const id = await client.client("ID");
    await client.set("not-a-list", "x");
    await expect(client.lpush("not-a-list", "y")).rejects.toThrow(/WRONGTYPE/);
    expect(await client.client("ID")).toBe(id);
  });

  it("lets a blocking connection's command wait out a restart of the server, however many reconnections it takes", async () => {
    const client = await open("blocking");
    await server!.kill();
    let reconnections = 0;
    client.on("reconnecting", () => reconnections++);
    const reply = client.ping();
    // A command connection gives up after 5 reconnections; a blocking one must not.
    await waitFor(() => reconnections >= 7, 30_000, "7 reconnection attempts");
    await server!.restart();
    expect(await reply).toBe("PONG");
  });
});

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 1));
    });
  });
}
