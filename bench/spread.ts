// How every bench reports a figure measured over rounds: its min / median / max, so the spread of a noisy
// shared machine is in the output beside the median each target is judged by.

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export function spreadOf(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0] ?? Number.NaN, median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, max: sorted.at(-1) ?? Number.NaN };
}

/** "12 / 15 / 31 ms": min / median / max, with `digits` decimals and the unit after. */
export function showSpread(values: readonly number[], unit = 'ms', digits = 0): string {
  const { min, median, max } = spreadOf(values);
  return `${min.toFixed(digits)} / ${median.toFixed(digits)} / ${max.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
}
