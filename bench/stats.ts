/** Summary of a sample of durations (ms): nearest-rank percentiles, no interpolation. */
export function summarize(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
  return {
    n: sorted.length,
    min: sorted[0] ?? NaN,
    p50: rank(50),
    p95: rank(95),
    p99: rank(99),
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Prints one summary line: `label  n=… min … p50 … p95 … p99 … max …`. */
export function printSummary(label: string, samples: number[]): ReturnType<typeof summarize> {
  const s = summarize(samples);
  console.log(
    `${label.padEnd(34)} n=${String(s.n).padEnd(4)} min ${ms(s.min).padStart(10)}  p50 ${ms(s.p50).padStart(10)}  p95 ${ms(s.p95).padStart(10)}  p99 ${ms(s.p99).padStart(10)}  max ${ms(s.max).padStart(10)}`,
  );
  return s;
}
