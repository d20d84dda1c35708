import { afterAll, vi } from "vitest";

// Every test file ends only once the dynamic imports it started have settled. The suite runs with
// isolate: false, so a worker keeps its module cache from file to file; src/ loads providers, stores and
// MCP lazily, and an import still under way when its file ends (a test that ended first, or timed out,
// on a loaded machine) is cut off by that file's teardown and stays failed in the cache: every later
// file of that worker needing the module then fails ("Cannot load … after the environment was torn
// down"). Seen as 90 failures in 13 files at load 20 on 2 cores.
afterAll(() => vi.dynamicImportSettled());
