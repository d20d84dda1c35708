import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { runScript } from "../../src/workflows/script-sandbox.ts";
import { WorkflowScriptError } from "../../src/workflows/workflow-errors.ts";
import { scaled } from "../support/time-scale.ts";

// Replay runs a script again and expects it to do the same: nothing it can reach may read the host's
// clock, randomness or time zone. Each route a script could take to them is tried here.

const host = {
  args: null,
  agent: async () => JSON.stringify({ ok: false, error: "no agents here" }),
  phase: () => {},
  log: () => {},
  failure: () => {},
};
const run = (body: string) =>
  runScript(body, host, { signal: AbortSignal.timeout(scaled(20_000)), filename: "clock.js" });

const CLOCK = /clock is not available in a workflow script/;
const NOT_A_FUNCTION = /not a (function|constructor)/;

test.each([
  ["Date.now()", "return Date.now();", CLOCK],
  ["new Date()", "return new Date().getTime();", CLOCK],
  ["Date() called as a function", "return Date();", CLOCK],
  ["the prototype of Date: its now()", "return Object.getPrototypeOf(Date).now();", NOT_A_FUNCTION],
  [
    "the prototype of Date, constructed",
    "return new (Object.getPrototypeOf(Date))().getTime();",
    NOT_A_FUNCTION,
  ],
  ["Date.prototype.constructor.now()", "return Date.prototype.constructor.now();", CLOCK],
  ["a date's constructor, constructed", "return new (new Date(0).constructor)().getTime();", CLOCK],
  ["a date's constructor, called", "return new Date(0).constructor();", CLOCK],
  ["Reflect.construct(Date, [])", "return Reflect.construct(Date, []).getTime();", CLOCK],
  ["a subclass of Date", "class Later extends Date {} return new Later().getTime();", CLOCK],
  ["Date through indirect eval", "return (0, eval)('Date.now()');", CLOCK],
  ["Date through Function", "return Function('return new Date().getTime()')();", CLOCK],
  ["Math.random()", "return Math.random();", /Math.random\(\) is not available/],
  [
    "Math.random through its descriptor",
    "return Object.getOwnPropertyDescriptor(Math, 'random').value();",
    /Math.random\(\) is not available/,
  ],
  ["performance.now()", "return performance.now();", /'?performance'? is not defined/],
  ["Intl's time zone", "return Intl.DateTimeFormat().resolvedOptions().timeZone;", /'?Intl'? is not defined/],
  [
    "Atomics.wait (a timer)",
    "return Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);",
    /'?Atomics'? is not defined/,
  ],
])("%s throws", async (_route, body, message) => {
  const error = await run(body).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(WorkflowScriptError);
  expect((error as Error).message).toMatch(message);
});

test("dates from given values still work: Date(ms), Date.UTC, Date.parse, instanceof, subclasses", async () => {
  expect(
    await run(`
      class Stamp extends Date {}
      const d = new Date(Date.UTC(2025, 0, 14, 9, 30));
      return [d.toISOString(), Date.parse("2025-01-14T09:30:00Z"), d instanceof Date, new Stamp(0).getTime(), Date.name];
    `),
  ).toEqual(["2025-01-14T09:30:00.000Z", Date.UTC(2025, 0, 14, 9, 30), true, 0, "Date"]);
});

const SCRIPT_PROCESS = fileURLToPath(new URL("./support/script-process.ts", import.meta.url));

test("local time is UTC in every time zone the host runs in, so a resumed run computes the same dates", async () => {
  const bodies = [
    "return new Date(0).getTimezoneOffset();",
    "return new Date(0).getHours();",
    "return new Date(2024, 5, 1).getTime();",
    "return Date.parse('2024-06-01T00:00:00');",
    "return new Date(0).toString();",
    "return new Date(0).toLocaleString();",
  ];
  const inZone = async (zone: string) => {
    const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT_PROCESS, JSON.stringify(bodies)], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TZ: zone },
    });
    return JSON.parse(stdout) as unknown[];
  };
  const utc = [
    0,
    0,
    Date.UTC(2024, 5, 1),
    Date.UTC(2024, 5, 1),
    "Thu Jan 01 1970 00:00:00 GMT+0000",
    "01/01/1970, 12:00:00 AM",
  ];
  expect(await inZone("Pacific/Chatham")).toEqual(utc);
  expect(await inZone("America/Los_Angeles")).toEqual(utc);
});
