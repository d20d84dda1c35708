/**
 * A duration as people and models read it: `850ms`, `4.2s`, `2m5s`, `12m`, `1h30m`. Under a minute it
 * keeps one decimal (`1.0s`), so a count-up in the live tree does not change width every second.
 */
export function formatDuration(ms: number): string {
  const clean = Number.isFinite(ms) && ms > 0 ? ms : 0;
  if (Math.round(clean) < 1000) return `${Math.round(clean)}ms`;
  const tenths = Math.round(clean / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)}s`;
  const seconds = Math.round(clean / 1000);
  if (seconds < 3600) return joinUnits(Math.floor(seconds / 60), "m", seconds % 60, "s");
  const minutes = Math.round(clean / 60_000);
  return joinUnits(Math.floor(minutes / 60), "h", minutes % 60, "m");
}

function joinUnits(major: number, majorUnit: string, minor: number, minorUnit: string): string {
  return minor === 0 ? `${major}${majorUnit}` : `${major}${majorUnit}${minor}${minorUnit}`;
}
