/** A seeded PRNG (mulberry32), so every fuzz failure can be replayed from its seed. */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  /** Up to `max` distinct items, in random order. */
  some<T>(items: readonly T[], max = items.length): T[] {
    const pool = [...items];
    const out: T[] = [];
    const count = this.int(0, Math.min(max, pool.length));
    for (let i = 0; i < count; i++) out.push(...pool.splice(Math.floor(this.next() * pool.length), 1));
    return out;
  }
}
