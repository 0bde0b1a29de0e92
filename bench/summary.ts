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
};

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
