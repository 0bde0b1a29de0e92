/** One line of `npm run bench`'s closing table. */
export type SummaryRow = {
  measure: string;
  result: string;
  /** What the same machine does in the same run without Remit in the way. */
  baseline: string;
  ratio: string;
  goal: string;
  /** Whether the figure meets its goal; left out where the goal is not a threshold. */
  met?: boolean;
  /** For a goal not met: why, and what would meet it (printed under the table). */
  whyNot?: string;
  /** One of the headline goals this row answers (printed first, in HEADLINES' order). */
  headline?: Headline;
};

/**
 * The headline goals: a small server, started in seconds from a fresh clone, with polls that
 * stay flat while invoices are created, and a CLI that answers at once (docs/benchmarks.md). Printed first, each with its goal
 * and whether this run met it.
 */
export const HEADLINES = [
  "warm start → ready, p50",
  "warm start → payments detected, p50",
  "cold start (new DATA_DIR)",
  "whole stack idle memory",
  "invoice creation, 4 clients, p99",
  "status poll p99, alone → while 4 clients create",
  "CLI start-up (remit invoices list), warm p50",
  "busy chain: receipt → paid, p95",
  "list search q at 1M rows, p99",
] as const;
export type Headline = (typeof HEADLINES)[number];

const rows: SummaryRow[] = [];

/** Adds a line to the closing table (each benchmark records its headline figures). */
export function record(row: SummaryRow): void {
  rows.push(row);
}

export const recorded = (): readonly SummaryRow[] => rows;

type Line = Record<(typeof COLUMNS)[number], string>;
const COLUMNS = ["measure", "result", "baseline", "ratio", "goal", "met"] as const;

const metCell = (row: SummaryRow) => (row.met === undefined ? "" : row.met ? "yes" : "NO");

/**
 * The rows as an aligned plain-text table, then each goal not met with why and what would
 * meet it.
 */
export function formatSummary(summary: readonly SummaryRow[]): string {
  const lines: Line[] = [
    {
      measure: "measure",
      result: "result",
      baseline: "baseline (same run)",
      ratio: "ratio",
      goal: "goal",
      met: "met",
    },
    ...summary.map((row) => ({ ...row, met: metCell(row) })),
  ];
  const widths = COLUMNS.map((column) => Math.max(...lines.map((line) => line[column].length)));
  const format = (line: Line) =>
    COLUMNS.map((column, i) => line[column].padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  const [header, ...body] = lines;
  const missed = summary
    .filter((row) => row.met === false)
    .map((row) => `- ${row.measure}: ${row.whyNot ?? "no reason recorded"}`);
  return [
    header ? format(header) : "",
    widths.map((width) => "-".repeat(width)).join("  "),
    ...body.map(format),
    ...(missed.length > 0 ? ["", "Goals not met (why, and what would meet them):", ...missed] : []),
  ].join("\n");
}

export const fmtMs = (value: number) => `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`;

/**
 * The headline table: one line per HEADLINES entry, in that order, from the first row recorded
 * for it (the fresh clone's start-up runs before the work tree's); a goal this run did not
 * measure says so. Under it, the machine line: figures from two machines compare as ratios of
 * its work unit.
 */
export function formatHeadlines(summary: readonly SummaryRow[], machine?: string): string {
  const lines = HEADLINES.map((headline) => {
    const row = summary.find((candidate) => candidate.headline === headline);
    return row
      ? { measure: headline, result: row.result, goal: row.goal, met: row.met ? "met" : "not met" }
      : { measure: headline, result: "not measured in this run", goal: "", met: "" };
  });
  const header = { measure: "goal", result: "this run", goal: "goal", met: "" };
  const columns = ["measure", "result", "goal", "met"] as const;
  const widths = columns.map((column) =>
    Math.max(...[header, ...lines].map((line) => line[column].length)),
  );
  const format = (line: Record<(typeof columns)[number], string>) =>
    columns
      .map((column, i) => line[column].padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [
    format(header),
    widths.map((width) => "-".repeat(width)).join("  "),
    ...lines.map(format),
    ...(machine ? ["", machine] : []),
  ].join("\n");
}
