import { defineConfig } from "vitest/config";

export default defineConfig({
  // `import "agentry"` in this checkout's tests resolves to the TypeScript sources (package.json
  // "exports", condition "agentry-source"), not to a built dist/. Vitest adds its default conditions.
  ssr: { resolve: { conditions: ["agentry-source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
  },
});
