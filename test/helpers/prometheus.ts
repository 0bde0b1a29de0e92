/** One sample of Prometheus' text exposition format: `name{label="value",…} 1.5`. */
export type Sample = { name: string; labels: Record<string, string>; value: number };

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
const LABELS = /^(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*$/;

const unescapeLabel = (value: string) =>
  value.replace(/\\(["\\n])/g, (_, char: string) => (char === "n" ? "\n" : char));

/** Every sample in a scrape; comments (`# HELP`, `# TYPE`) and blank lines are skipped. */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const match = SAMPLE.exec(line);
    if (!match || !LABELS.test(match[2] ?? "")) throw new Error(`not a Prometheus sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(LABEL))
      labels[key as string] = unescapeLabel(value as string);
    const value = match[3] as string;
    samples.push({
      name: match[1] as string,
      labels,
      value: value === "NaN" ? Number.NaN : value === "+Inf" ? Infinity : Number(value),
    });
  }
  return samples;
}

/** The `# TYPE` of each metric family in a scrape. */
export function metricTypes(text: string): Record<string, string> {
  return Object.fromEntries(
    [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1], match[2]]),
  );
}

/**
 * The value of the one sample named `name` whose labels include `labels`; undefined when none
 * matches, an error when several do (the labels given were not specific enough).
 */
export function sampleValue(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1)
    throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
