// Runs inside the QuickJS sandbox before a workflow script, never in Node (see script-sandbox.ts).
// It turns the two host bridges into the script's primitives and removes them from sight. Only
// strings cross the bridge: the host parses them, so no object of the script ever reaches Node.
(() => {
  const hostCall = globalThis.__hostCall;
  const hostAsync = globalThis.__hostAsync;
  delete globalThis.__hostCall;
  delete globalThis.__hostAsync;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const STOPPED = "WorkflowStopped";
  const json = (value) => stringify(value === undefined ? null : value);
  const describe = (error) =>
    error !== null && typeof error === "object" && typeof error.message === "string"
      ? error.message
      : String(error);
  const fail = (what, why) => {
    throw new TypeError(`${what}: ${why}`);
  };

  // Replay positions. A call's position is where it sits in the script's structure, not when it was
  // made: the scope it runs in (the script's body, an item of a parallel, an item's stage of a
  // pipeline, a nested workflow) and its ordinal among the calls of that scope. "3.1.2/0" is the first
  // call of stage 2 of item 1 of the pipeline at ordinal 3 of the body, whatever order the children
  // finished in. QuickJS has no async context, so the scope is a variable: set while a stage or item
  // starts, and set back by each primitive when its await resumes (a job queue drains one host reply at
  // a time, so what runs then continues that call's scope).
  let scope = parse(hostCall("scope", "null"));
  const ordinals = Object.create(null);
  const site = () => {
    const ordinal = ordinals[scope] ?? 0;
    ordinals[scope] = ordinal + 1;
    return scope === "" ? `${ordinal}` : `${scope}/${ordinal}`;
  };
  const within = (inner, work) => {
    const outer = scope;
    scope = inner;
    try {
      return typeof work === "function" ? work() : work;
    } finally {
      scope = outer;
    }
  };

  async function agent(prompt, options) {
    if (typeof prompt !== "string" || prompt.trim() === "")
      fail("agent(prompt, options)", "prompt must be a non-empty string");
    if (options !== undefined && (options === null || typeof options !== "object"))
      fail("agent(prompt, options)", "options must be an object");
    // A wrapper without a prototype: a toJSON planted on Object.prototype cannot swap the prompt.
    const own = scope;
    const message = Object.create(null);
    message.position = site();
    message.prompt = prompt;
    message.options = options ?? {};
    const reply = parse(await hostAsync("agent", stringify(message)));
    scope = own;
    if (reply.ok) return reply.value;
    const error = new Error(reply.error);
    error.name = reply.stopped ? STOPPED : "AgentCallError";
    throw error;
  }

  // A failed item resolves to null and is reported to the run; a stopped run (cancel, budget) stops all.
  const settle = (work, where) =>
    Promise.resolve()
      .then(work)
      .catch((error) => {
        if (error !== null && typeof error === "object" && error.name === STOPPED) throw error;
        hostCall("failure", json({ where, error: describe(error) }));
        return null;
      });

  async function parallel(tasks) {
    if (!Array.isArray(tasks)) fail("parallel(tasks)", "tasks must be an array of functions");
    const own = scope;
    const at = site();
    const values = await Promise.all(
      tasks.map((task, index) => settle(() => within(`${at}.${index}`, task), `parallel item ${index}`)),
    );
    scope = own;
    return values;
  }

  async function pipeline(items, ...stages) {
    if (!Array.isArray(items)) fail("pipeline(items, ...stages)", "items must be an array");
    if (stages.length === 0 || stages.some((stage) => typeof stage !== "function"))
      fail("pipeline(items, ...stages)", "give at least one stage, each a function");
    const own = scope;
    const at = site();
    // Each item moves to its next stage as soon as its previous one is done: no barrier between stages.
    const values = await Promise.all(
      items.map(async (item, index) => {
        let value = item;
        for (let stage = 0; stage < stages.length; stage++) {
          const current = value;
          value = await settle(
            () => within(`${at}.${index}.${stage}`, () => stages[stage](current, item, index)),
            `pipeline item ${index}, stage ${stage + 1}`,
          );
          if (value === null) return null;
        }
        return value;
      }),
    );
    scope = own;
    return values;
  }

  // Runs a saved workflow inline (one level: a nested workflow cannot nest another); its agents are
  // this run's, in its journal and budget.
  async function workflow(name, input) {
    if (typeof name !== "string" || name.trim() === "")
      fail("workflow(name, args)", "name must be a non-empty string");
    const own = scope;
    const message = Object.create(null);
    message.position = site();
    message.name = name;
    message.args = input === undefined ? null : input;
    const reply = parse(await hostAsync("workflow", stringify(message)));
    scope = own;
    if (reply.ok) return reply.value;
    const error = new Error(reply.error);
    error.name = reply.stopped ? STOPPED : "WorkflowCallError";
    throw error;
  }

  // Claude Code's budget object: the run's token budget (null without one) and what its agents used.
  const tokens = () => parse(hostCall("budget", "null"));
  const budget = Object.freeze({
    get total() {
      return tokens().total;
    },
    spent: () => tokens().spent,
    remaining: () => {
      const { total, spent } = tokens();
      return total === null ? null : Math.max(0, total - spent);
    },
  });

  function phase(title) {
    if (typeof title !== "string" || title.trim() === "")
      fail("phase(title)", "title must be a non-empty string");
    hostCall("phase", json(title));
  }

  function log(...parts) {
    hostCall("log", json(parts.map((part) => (typeof part === "string" ? part : stringify(part))).join(" ")));
  }

  // Replay needs a script that does the same thing again: no clock, no randomness.
  const noClock = () => {
    throw new Error(
      "The clock is not available in a workflow script (a resumed run must do the same again): pass a time in args.",
    );
  };
  // The engine's Date is replaced, not subclassed: a subclass leaves the real one one step away
  // (`Object.getPrototypeOf(Date)`, `Date.prototype.constructor`). After this, nothing the script can
  // reach refers to it: the prototype it shares names the replacement as its constructor.
  const RealDate = Date;
  const construct = Reflect.construct;
  function WorkflowDate(...values) {
    // `Date()` called without `new` is the current time as a string.
    if (new.target === undefined || values.length === 0) noClock();
    return construct(RealDate, values, new.target);
  }
  Object.defineProperties(WorkflowDate, {
    name: { value: "Date", writable: false, enumerable: false, configurable: true },
    length: { value: 7, writable: false, enumerable: false, configurable: true },
    prototype: { value: RealDate.prototype, writable: false, enumerable: false, configurable: false },
    now: { value: noClock, writable: true, enumerable: false, configurable: true },
    parse: { value: RealDate.parse, writable: true, enumerable: false, configurable: true },
    UTC: { value: RealDate.UTC, writable: true, enumerable: false, configurable: true },
  });
  Object.defineProperty(RealDate.prototype, "constructor", {
    value: WorkflowDate,
    writable: true,
    enumerable: false,
    configurable: true,
  });
  RealDate.now = noClock;
  Math.random = () => {
    throw new Error(
      "Math.random() is not available in a workflow script (a resumed run must do the same again): pass a seed in args.",
    );
  };

  const define = (name, value) =>
    Object.defineProperty(globalThis, name, {
      value,
      writable: false,
      enumerable: false,
      configurable: false,
    });
  define("Date", WorkflowDate);
  define("agent", agent);
  define("parallel", parallel);
  define("pipeline", pipeline);
  define("phase", phase);
  define("log", log);
  define("console", Object.freeze({ log, info: log, warn: log, error: log }));
  define("workflow", workflow);
  define("budget", budget);
  define("args", parse(hostCall("args", "null")));
})();
