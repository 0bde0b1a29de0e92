import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureUsdcGenesis } from "../chain/usdcGenesis.ts";
import type { Figures } from "./audit.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where each scenario appends its figures (one JSON line). */
    faultResultsFile: string;
    /** The anvil state with USDC deployed, for each scenario's own chain. */
    faultGenesisFile: string;
  }
}

const COLUMNS: [keyof Figures, string][] = [
  ["scenario", "scenario"],
  ["invoices_created", "invoices"],
  ["payments_made", "payments made"],
  ["payments_reflected", "reflected"],
  ["emails_sent", "emails sent"],
  ["webhooks_delivered", "webhooks delivered"],
  ["webhook_redeliveries", "redelivered"],
  ["client_retries", "client retries"],
  ["duplicates", "duplicates"],
  ["losses", "losses"],
];

/** The figures of every scenario as one table. */
export function formatTable(rows: Figures[]): string {
  const cells = [
    COLUMNS.map(([, title]) => title),
    ...rows.map((row) => COLUMNS.map(([key]) => String(row[key]))),
  ];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((line) => (line[i] ?? "").length)));
  const format = (line: string[]) =>
    line
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ");
  return [
    format(cells[0] ?? []),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...cells.slice(1).map(format),
  ].join("\n");
}

/** Global set-up of `npm run test:faults`: a results file, and the table printed at the end. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), "remit-faults-report-"));
  const file = path.join(dir, "results.jsonl");
  project.provide("faultResultsFile", file);
  project.provide("faultGenesisFile", await ensureUsdcGenesis(path.join(dir, "usdc-genesis.json")));
  return async () => {
    const text = await readFile(file, "utf8").catch(() => "");
    const rows = text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Figures);
    if (rows.length)
      process.stdout.write(`\nFault suite: figures per scenario\n\n${formatTable(rows)}\n\n`);
    await rm(dir, { recursive: true, force: true });
  };
}
