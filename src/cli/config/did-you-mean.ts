import { editDistance } from "../../text/edit-distance.ts";

/** The candidate closest to `input`, if it is close enough to be a plausible typo. */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  const lower = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = candidate.toLowerCase() === lower ? 0 : editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const tolerance = Math.max(2, Math.floor(input.length / 3));
  return bestDistance <= tolerance ? best : undefined;
}
