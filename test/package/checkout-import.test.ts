// A script of the user's inside a checkout imports the package by its name and runs the sources,
// with no build and no flag: README "Install and build", docs/decisions/0004-bundled-package.md.
import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, expect, it } from "vitest";
import { finished } from "../cli/support/cli-process.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

let base: string | undefined;
afterEach(async () => {
  if (base !== undefined) await rm(base, { recursive: true, force: true, maxRetries: 3 });
  base = undefined;
});

it("`import` of the package's own name from a script in a checkout runs the sources, unbuilt", async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "agentry-checkout-")));
  // The parts of a fresh checkout that resolution reads; no dist/, as after `git clone && npm ci`.
  const checkout = join(base, "checkout");
  await mkdir(join(checkout, "examples"), { recursive: true });
  await copyFile(join(REPO, "package.json"), join(checkout, "package.json"));
  await symlink(join(REPO, "src"), join(checkout, "src"));
  await symlink(join(REPO, "node_modules"), join(checkout, "node_modules"));
  const { name } = JSON.parse(await readFile(join(REPO, "package.json"), "utf8")) as { name: string };

  await writeFile(
    join(checkout, "examples", "hello.ts"),
    `import { nodeOperations, runAgent, Session, userText } from ${JSON.stringify(name)};
import { scriptedModel } from ${JSON.stringify(`${name}/testing`)};

const model = scriptedModel([{ text: "Hello from the sources." }]);
const session = await Session.create({ workspace: process.cwd(), agentName: "main", model: model.id, persist: false });
await session.append(userText("hi"));
const config = { name: "main", model, systemPrompt: "", tools: [], workspace: process.cwd(), ops: nodeOperations };
const run = runAgent(config, session);
for await (const _ of run) {
  // drain
}
const resolved = import.meta.resolve(${JSON.stringify(name)});
console.log(JSON.stringify({ text: (await run.outcome).text, resolved }));
`,
  );
  const child = spawn(process.execPath, [join("examples", "hello.ts")], {
    cwd: checkout,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: base },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const result = await finished(child);
  expect(result.stderr).toBe("");
  expect(JSON.parse(result.stdout)).toEqual({
    text: "Hello from the sources.",
    // src/ is linked to this checkout's: Node resolves links to their real path.
    resolved: pathToFileURL(join(REPO, "src", "index.ts")).href,
  });
});
