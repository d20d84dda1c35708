/** Order statistics of a set of samples (nearest-rank percentiles: no interpolation, so every value was measured). */
export interface Summary {
  median: number;
  min: number;
  max: number;
  p10: number;
  p90: number;
  count: number;
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error("summarize: no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: percentile(sorted, 50),
    min: sorted[0]!,
    max: sorted.at(-1)!,
    p10: percentile(sorted, 10),
    p90: percentile(sorted, 90),
    count: sorted.length,
  };
}

/** Nearest-rank percentile of already sorted samples; the median of an even count averages the middle two. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error("percentile: no samples");
  if (p === 50 && sorted.length % 2 === 0) {
    const mid = sorted.length / 2;
    return (sorted[mid - 1]! + sorted[mid]!) / 2;
  }
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
