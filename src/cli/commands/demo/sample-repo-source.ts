/**
 * The source files of the demo's sample package, `cartkit`: a small shopping-cart library with a few
 * TODOs and one real bug (marked with a FIXME) for the explorers to find.
 */
export const SAMPLE_SOURCE: Record<string, string> = {
  "src/money.ts": `/** Amounts are integer cents, so sums never pick up floating-point dust. */
export type Cents = number;

// TODO: support currencies other than USD (the symbol and the decimals are hard-coded).
const SYMBOL = "$";

export function cents(dollars: number): Cents {
  if (!Number.isFinite(dollars)) throw new RangeError("amount must be a finite number");
  return Math.round(dollars * 100);
}

export function addMoney(...amounts: Cents[]): Cents {
  return amounts.reduce((sum, amount) => sum + amount, 0);
}

export function multiply(amount: Cents, quantity: number): Cents {
  if (!Number.isInteger(quantity) || quantity < 0) {
    throw new RangeError("quantity must be a whole number >= 0");
  }
  return amount * quantity;
}

export function formatMoney(amount: Cents): string {
  const sign = amount < 0 ? "-" : "";
  const whole = Math.floor(Math.abs(amount) / 100);
  const fraction = String(Math.abs(amount) % 100).padStart(2, "0");
  return sign + SYMBOL + whole.toLocaleString("en-US") + "." + fraction;
}
`,
  "src/cart.ts": `import { type Cents, addMoney, multiply } from "../../demo/money.ts";
import { type Discount, applyDiscounts } from "../../demo/discount.ts";
import { shippingCost, type Region } from "../../demo/shipping.ts";

export interface CartLine {
  sku: string;
  name: string;
  unitPrice: Cents;
  quantity: number;
}

export interface Totals {
  subtotal: Cents;
  discount: Cents;
  shipping: Cents;
  total: Cents;
}

/** A cart: lines keyed by SKU. Adding an SKU again raises its quantity. */
export class Cart {
  private readonly lines = new Map<string, CartLine>();

  add(sku: string, name: string, unitPrice: Cents, quantity = 1): void {
    const line = this.lines.get(sku);
    if (line) {
      line.quantity += quantity;
      return;
    }
    this.lines.set(sku, { sku, name, unitPrice, quantity });
  }

  remove(sku: string): boolean {
    return this.lines.delete(sku);
  }

  setQuantity(sku: string, quantity: number): void {
    const line = this.lines.get(sku);
    if (!line) throw new Error("no line for SKU " + sku);
    if (quantity === 0) this.lines.delete(sku);
    else line.quantity = quantity;
  }

  /** Items in the cart, counting quantities (3 mugs + 1 pot = 4). */
  get itemCount(): number {
    let count = 0;
    for (const line of this.lines.values()) count += line.quantity;
    return count;
  }

  get subtotal(): Cents {
    return addMoney(...[...this.lines.values()].map((l) => multiply(l.unitPrice, l.quantity)));
  }

  // TODO: cache totals; every call walks the lines twice.
  totals(region: Region, discounts: Discount[] = []): Totals {
    const subtotal = this.subtotal;
    const discounted = applyDiscounts(subtotal, this.itemCount, discounts);
    const shipping = shippingCost(discounted, region);
    return { subtotal, discount: subtotal - discounted, shipping, total: discounted + shipping };
  }

  toJSON(): CartLine[] {
    return [...this.lines.values()].map((line) => ({ ...line }));
  }
}
`,
  "src/discount.ts": `import type { Cents } from "../../demo/money.ts";

export type Discount =
  | { kind: "percent"; percent: number }
  | { kind: "fixed"; amount: Cents }
  | { kind: "bulk"; minItems: number; percent: number };

/** Applies discounts in order; the result never drops below zero. */
export function applyDiscounts(subtotal: Cents, itemCount: number, discounts: Discount[]): Cents {
  let total = subtotal;
  for (const discount of discounts) total = applyOne(total, itemCount, discount);
  return Math.max(0, total);
}

function applyOne(total: Cents, itemCount: number, discount: Discount): Cents {
  switch (discount.kind) {
    case "percent":
      return total - percentOf(total, discount.percent);
    case "fixed":
      return total - discount.amount;
    case "bulk":
      // FIXME: "buy 10 or more" orders of exactly 10 items get no discount.
      if (itemCount > discount.minItems) return total - percentOf(total, discount.percent);
      return total;
  }
}

function percentOf(amount: Cents, percent: number): Cents {
  if (percent < 0 || percent > 100) throw new RangeError("percent must be between 0 and 100");
  return Math.round((amount * percent) / 100);
}

// TODO: coupon codes ("SPRING10") that map to a Discount.
`,
  "src/shipping.ts": `import type { Cents } from "../../demo/money.ts";

export type Region = "domestic" | "europe" | "world";

// TODO: read the rates from a config file instead of hard-coding them.
const RATES: Record<Region, Cents> = { domestic: 499, europe: 1299, world: 2499 };

/** Orders at or above this (after discounts) ship free within the country. */
export const FREE_SHIPPING_FROM: Cents = 5000;

export function shippingCost(amount: Cents, region: Region): Cents {
  if (amount === 0) return 0;
  if (region === "domestic" && amount >= FREE_SHIPPING_FROM) return 0;
  return RATES[region];
}
`,
  "src/index.ts": `export { Cart, type CartLine, type Totals } from "../../demo/cart.ts";
export { applyDiscounts, type Discount } from "../../demo/discount.ts";
export { type Cents, cents, formatMoney } from "../../demo/money.ts";
export { FREE_SHIPPING_FROM, type Region, shippingCost } from "../../demo/shipping.ts";
`,
};
