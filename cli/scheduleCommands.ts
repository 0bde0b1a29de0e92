import type { Command } from "commander";
import {
  type ApiOptions,
  type CommonOptions,
  field,
  filter,
  id,
  listCommand,
  postAndPrint,
  type Row,
} from "./commandKit.ts";
import { parseJson, readStdin } from "./io.ts";

/** `remit schedules …`: invoice schedules (docs/cli.md). */
export function scheduleCommands(program: Command, common: CommonOptions): void {
  const schedules = program.command("schedules").description("your invoice schedules");
  const line = (b: Row) =>
    `schedule ${b.schedule_id}: ${b.status}, ${b.interval}${b.n ? ` (${b.n} days)` : ""}, next ${b.next_issue_date ?? "-"}, ${b.issued_count} issued`;
  listCommand(schedules, common, {
    name: "list",
    path: "/api/invoice-schedules",
    what: "your invoice schedules",
    filters: [filter("status", "active, paused, cancelled, completed (comma-separated)")],
    columns: [
      ["ID", field("schedule_id")],
      ["STATUS", field("status")],
      ["INTERVAL", field("interval")],
      ["NEXT", field("next_issue_date")],
      ["ISSUED", field("issued_count")],
      ["VENDOR", (r) => (r.invoice as Row | undefined)?.vendor_name],
    ],
  });
  common(
    schedules
      .command("create")
      .description("create a schedule from JSON on stdin: the body of POST /api/invoice-schedules")
      .option("--stdin", "read the request JSON from standard input (the only way)"),
  ).action(async (options: ApiOptions) => {
    const body = parseJson(await readStdin(), "stdin");
    await postAndPrint(options, "/api/invoice-schedules", line, body);
  });
  common(
    schedules
      .command("run <id>")
      .description("issue the schedule's next invoice now (POST /api/invoice-schedules/{id}/run)"),
  ).action(async (key: string, options: ApiOptions) => {
    await postAndPrint(
      options,
      `/api/invoice-schedules/${id(key)}/run`,
      (b) => `${b.invoice_number}: ${b.total_amount} USDC, ${b.status} (${b.invoice_id})`,
    );
  });
  for (const action of ["pause", "resume", "cancel"] as const) {
    common(
      schedules
        .command(`${action} <id>`)
        .description(`${action} a schedule (POST /api/invoice-schedules/{id}/${action})`),
    ).action(async (key: string, options: ApiOptions) => {
      await postAndPrint(options, `/api/invoice-schedules/${id(key)}/${action}`, line);
    });
  }
}
