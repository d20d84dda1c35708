/**
 * Edits that turn `a` into `b`: insertions, deletions, substitutions and swaps of two neighbours, one
 * each (optimal string alignment), so the typo `lsit` is 1 from `list`. Compares UTF-16 units; callers
 * lower-case first when case should not count.
 */
export function editDistance(a: string, b: string): number {
  // Three rows of the table are enough: a swap looks two rows back.
  let twoBack: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, twoBack[j - 2]! + 1);
      }
      current.push(value);
    }
    twoBack = previous;
    previous = current;
  }
  return previous[b.length]!;
}
