import { availableParallelism, cpus, loadavg, totalmem } from "node:os";

export interface Machine {
  date: string;
  node: string;
  platform: string;
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
}

export function machine(): Machine {
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
  };
}

/** Samples the 1-minute load average every `everyMs` until stopped; returns the samples. */
export function sampleLoad(everyMs = 5000): () => number[] {
  const samples = [loadavg()[0] ?? 0];
  const timer = setInterval(() => samples.push(loadavg()[0] ?? 0), everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    samples.push(loadavg()[0] ?? 0);
    return samples;
  };
}
