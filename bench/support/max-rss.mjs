// Preloaded (`node --import <this file's URL> …`) into a process whose peak RSS a benchmark wants:
// at exit it writes `process.resourceUsage().maxRSS` (KiB) to the file AGENTRY_BENCH_RSS_FILE names.
// Plain JavaScript, so the measured process does not start Node's TypeScript stripper for it.
import { writeFileSync } from "node:fs";

const file = process.env.AGENTRY_BENCH_RSS_FILE;
if (file) process.on("exit", () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
