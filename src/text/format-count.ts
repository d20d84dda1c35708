/**
 * `1234567` → `1,234,567`: what `toLocaleString("en-US")` prints for a whole number, without ICU. The
 * first call of `toLocaleString` loads ICU's number-formatting data into the process (~7 MB of RSS),
 * and a run prints counts in every task result.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n));
  let grouped = "";
  for (let end = digits.length; end > 0; end -= 3) {
    const group = digits.slice(Math.max(0, end - 3), end);
    grouped = grouped === "" ? group : `${group},${grouped}`;
  }
  return n < 0 ? `-${grouped}` : grouped;
}
