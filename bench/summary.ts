/** One line of `npm run bench`'s closing table. */
export type SummaryRow = {
  measure: string;
  result: string;
  /** What the same machine does in the same run without Remit in the way. */
  baseline: string;
  ratio: string;
  goal: string;
};

const rows: SummaryRow[] = [];

/** Adds a line to the closing table (each benchmark records its headline figures). */
export function record(row: SummaryRow): void {
  rows.push(row);
}

export const recorded = (): readonly SummaryRow[] => rows;

const COLUMNS: (keyof SummaryRow)[] = ["measure", "result", "baseline", "ratio", "goal"];

/** The rows as an aligned plain-text table. */
export function formatSummary(summary: readonly SummaryRow[]): string {
  const lines = [
    {
      measure: "measure",
      result: "result",
      baseline: "baseline (same run)",
      ratio: "ratio",
      goal: "goal",
    },
    ...summary,
  ];
  const widths = COLUMNS.map((column) => Math.max(...lines.map((line) => line[column].length)));
  const format = (line: SummaryRow) =>
    COLUMNS.map((column, i) => line[column].padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  const [header, ...body] = lines;
  return [
    header ? format(header) : "",
    widths.map((width) => "-".repeat(width)).join("  "),
    ...body.map(format),
  ].join("\n");
}

export const fmtMs = (value: number) => `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`;
