import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { SAMPLE_SOURCE } from "./sample-repo-source.ts";

/** Tests, configuration and docs of the sample package; its sources are in `sample-repo-source.ts`. */
const SAMPLE_PROJECT: Record<string, string> = {
  "package.json": `${JSON.stringify(
    {
      name: "cartkit",
      version: "0.3.1",
      description: "A small shopping-cart library: lines, discounts, shipping.",
      type: "module",
      main: "src/index.ts",
      scripts: { test: "vitest run", "test:watch": "vitest", build: "tsc -p .", lint: "biome check ." },
      devDependencies: { "@biomejs/biome": "^2.0.0", typescript: "^5.8.0", vitest: "^3.2.0" },
    },
    null,
    2,
  )}\n`,
  "tsconfig.json": `${JSON.stringify(
    {
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        strict: true,
        allowImportingTsExtensions: true,
        noEmit: true,
      },
      include: ["src", "test"],
    },
    null,
    2,
  )}\n`,
  "vitest.config.ts": `import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
  },
});
`,
  "README.md": `# cartkit

A small shopping-cart library: cart lines, discounts and shipping, with amounts in integer cents.

    import { Cart, cents, formatMoney } from "cartkit";

    const cart = new Cart();
    cart.add("MUG-1", "Mug", cents(12.5), 2);
    formatMoney(cart.totals("domestic").total); // "$29.99"

## Development

    npm install
    npm test          # vitest
    npm run lint

Discounts: \`percent\`, \`fixed\` (in cents) and \`bulk\` ("10% off when you buy 10 or more").
Domestic orders of $50 or more ship free.
`,
  "test/cart.test.ts": `import { describe, expect, it } from "vitest";
import { Cart } from "../../src/cart.ts";
import { cents } from "../../src/money.ts";

describe("Cart", () => {
  it("adds lines and merges the same SKU", () => {
    const cart = new Cart();
    cart.add("MUG-1", "Mug", cents(12.5), 2);
    cart.add("MUG-1", "Mug", cents(12.5));
    expect(cart.itemCount).toBe(3);
    expect(cart.subtotal).toBe(3750);
  });

  it("removes a line when its quantity is set to 0", () => {
    const cart = new Cart();
    cart.add("POT-2", "Teapot", cents(30));
    cart.setQuantity("POT-2", 0);
    expect(cart.toJSON()).toEqual([]);
  });

  it("charges shipping below the free-shipping threshold", () => {
    const cart = new Cart();
    cart.add("MUG-1", "Mug", cents(12.5));
    expect(cart.totals("domestic")).toEqual({ subtotal: 1250, discount: 0, shipping: 499, total: 1749 });
  });

  it("ships domestic orders of $50 or more for free", () => {
    const cart = new Cart();
    cart.add("POT-2", "Teapot", cents(50));
    expect(cart.totals("domestic").shipping).toBe(0);
    expect(cart.totals("europe").shipping).toBe(1299);
  });
});
`,
  "test/discount.test.ts": `import { describe, expect, it } from "vitest";
import { applyDiscounts } from "../../src/discount.ts";

describe("applyDiscounts", () => {
  it("takes a percentage off", () => {
    expect(applyDiscounts(10000, 1, [{ kind: "percent", percent: 15 }])).toBe(8500);
  });

  it("never goes below zero", () => {
    expect(applyDiscounts(500, 1, [{ kind: "fixed", amount: 800 }])).toBe(0);
  });

  it("gives the bulk discount above the minimum", () => {
    expect(applyDiscounts(20000, 12, [{ kind: "bulk", minItems: 10, percent: 10 }])).toBe(18000);
  });

  it.todo("gives the bulk discount at exactly the minimum");
});
`,
};

/** Every file of the sample repository, by path relative to its root. */
export const SAMPLE_REPO: Readonly<Record<string, string>> = { ...SAMPLE_PROJECT, ...SAMPLE_SOURCE };

/** Writes the sample repository into `dir` (which must exist). */
export async function writeSampleRepo(dir: string): Promise<void> {
  for (const [path, text] of Object.entries(SAMPLE_REPO)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}
