import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    // Test files reuse their worker instead of starting one each (~160 ms of spawn and environment per
    // file, ~50 s of a full run on 2 cores). Every test makes its own temp folders, servers and
    // processes and restores what it changes in process.env, so nothing carries over between files.
    isolate: false,
  },
});
