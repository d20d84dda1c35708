import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { pack, restore } from "../../scripts/package-exports.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentry-package-exports-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

// Formatted by hand, as a person keeps it: restoring must give these exact bytes back.
const CHECKOUT = `{
  "name": "some-name",
  "exports": { ".": "./src/index.ts", "./testing": "./src/testing/index.ts", "./package.json": "./package.json" },
  "files": ["dist/"]
}
`;

it("points the exports at dist/ and adds engines while packing, then puts the checkout's file back byte for byte", async () => {
  await writeFile(join(dir, "package.json"), CHECKOUT);
  await pack(dir);
  expect(JSON.parse(await readFile(join(dir, "package.json"), "utf8"))).toEqual({
    name: "some-name",
    engines: { node: ">=22.18" },
    exports: {
      ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
      "./testing": { types: "./dist/testing/index.d.ts", default: "./dist/testing/index.js" },
      "./package.json": "./package.json",
    },
    files: ["dist/"],
  });
  await restore(dir);
  expect(await readFile(join(dir, "package.json"), "utf8")).toBe(CHECKOUT);
  expect(await readdir(dir)).toEqual(["package.json"]);
});

it("refuses to pack over the leftovers of a pack that died, so the checkout's file is never lost", async () => {
  await writeFile(join(dir, "package.json"), CHECKOUT);
  await pack(dir);
  await expect(pack(dir)).rejects.toThrow(/an earlier npm pack did not finish.*restore/);
  await restore(dir);
  expect(await readFile(join(dir, "package.json"), "utf8")).toBe(CHECKOUT);
});

it("refuses exports it cannot map, instead of shipping sources", async () => {
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ exports: { ".": { import: "./src/index.ts" } } }),
  );
  await expect(pack(dir)).rejects.toThrow(/must map each subpath to one file/);
});
