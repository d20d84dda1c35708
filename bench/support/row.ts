/** A goal is always an upper bound: the figure is met when the median is at most `max`. */
export interface Goal {
  max: number;
}

/** One line of the benchmark table: a metric measured `samples.length` times. */
export interface Row {
  figure: string;
  metric: string;
  unit: string;
  samples: number[];
  goal?: Goal;
  /** How it was measured, or why it is only indicative; printed under the table. */
  note?: string;
}

export function row(
  figure: string,
  metric: string,
  unit: string,
  samples: number[],
  extra: Partial<Row> = {},
): Row {
  return { figure, metric, unit, samples, ...extra };
}
