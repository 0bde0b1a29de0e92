import { z } from "@hono/zod-openapi";
import { Counter, register as processRegistry } from "prom-client";
import type { Executor } from "../../db/database.ts";
import { type ExportRange, exportOwnerNames } from "../../db/queries/exports.ts";
import { CSV_BOM, csvRow, exportFileName } from "../../domain/csv.ts";
import { utcToday } from "../../domain/invoiceStatus.ts";
import type { ListKey } from "../../domain/listCursor.ts";
import type { Actor } from "../actor.ts";
import { ownMerchantId } from "../authorize.ts";
import {
  assertKnownParams,
  assertRanges,
  endOf,
  momentParam,
  startOf,
} from "../lists/listQuery.ts";

/** `from` and `to` of an export, as the lists' dates: a date is a whole UTC day. */
export const ExportQuerySchema = z.object({
  from: momentParam(
    "from",
    "From this date (its start, UTC) or ISO 8601 time, included. Absent: from the first.",
    "2026-10-01",
  ),
  to: momentParam(
    "to",
    "To this date (its end, UTC: the day is included) or ISO 8601 time (excluded). Absent: to now.",
    "2026-10-31",
  ),
  bom: z
    .enum(["true", "false"])
    .optional()
    .openapi({
      param: { name: "bom", in: "query" },
      description:
        "Begin the file with a UTF-8 byte order mark, so Excel reads its accents and scripts as UTF-8 (default `true`); `false` for a program that does not skip one.",
      example: "false",
    }),
});

/** The moments an export covers, from its validated query; a reversed range is a 400. */
export function exportRange(
  params: Record<string, string>,
  query: z.infer<typeof ExportQuerySchema>,
): { from?: Date; before?: Date } {
  assertKnownParams(params, ["from", "to", "bom"]);
  const range = {
    ...(query.from ? { from: startOf(query.from) } : {}),
    ...(query.to ? { before: endOf(query.to) } : {}),
  };
  assertRanges([{ from: range.from, to: range.before, path: "to" }]);
  return range;
}

/**
 * Bytes of CSV every export has produced, by export: what the streams have handed to the HTTP
 * layer. Process-wide like Node's default metrics (the process registry, merged into /metrics);
 * it also shows, while a client reads slowly, that the server is not producing ahead of it.
 */
const exportedBytes: Counter<"export"> =
  (processRegistry.getSingleMetric("remit_csv_export_bytes_total") as
    | Counter<"export">
    | undefined) ??
  new Counter({
    name: "remit_csv_export_bytes_total",
    help: "Bytes of CSV produced by the exports, by export (invoices, payments)",
    labelNames: ["export"],
  });

/**
 * A CSV body streamed batch by batch, in constant memory (docs/api.md, "Exports: memory"):
 * - pulled: the stream asks for the next batch only when the HTTP layer has taken the previous
 *   one, and @hono/node-server takes the next chunk only once the socket has drained, so a slow
 *   client holds the server one batch ahead of what the kernel's socket buffers hold, not the
 *   rest of the export;
 * - each batch is one keyset read after the last row of the one before (an indexed query of its
 *   own, not a cursor): between batches the export holds no database connection, so a client
 *   reading for an hour holds no connection and no transaction (no snapshot pinning vacuum);
 * - a client that goes away cancels the stream: the batch being read is dropped, no more follow.
 */
export function csvStream<Row>(
  name: "invoices" | "payments",
  header: readonly string[],
  readBatch: (after: ListKey | null) => Promise<Row[]>,
  keyOf: (row: Row) => ListKey,
  cellsOf: (row: Row) => readonly (string | null)[],
  bom = true,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const produced = exportedBytes.labels(name);
  let after: ListKey | null = null;
  let started = false;
  let cancelled = false;
  const enqueue = (controller: ReadableStreamDefaultController<Uint8Array>, text: string) => {
    const chunk = encoder.encode(text);
    produced.inc(chunk.length);
    controller.enqueue(chunk);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          enqueue(controller, (bom ? CSV_BOM : "") + csvRow(header));
          return;
        }
        const rows = await readBatch(after);
        // Cancelled while the batch was being read: the stream is closed, nothing more to send.
        if (cancelled) return;
        const last = rows.at(-1);
        if (!last) {
          controller.close();
          return;
        }
        after = keyOf(last);
        enqueue(controller, rows.map((row) => csvRow(cellsOf(row))).join(""));
      },
      cancel() {
        cancelled = true;
      },
    },
    // One chunk queued ahead at most: memory stays one batch whatever the export's size.
    { highWaterMark: 1 },
  );
}

/** The headers of a CSV download named `name`. */
export const csvHeaders = (name: string) => ({
  "content-type": "text/csv; charset=utf-8; header=present",
  "content-disposition": `attachment; filename="${name}"`,
  "cache-control": "no-store",
});

/**
 * The export's file name: the merchant, what, and the dates (domain/csv.ts exportFileName):
 * `acme-ltd_invoices_2026-11-01_2026-11-30.csv`.
 */
export async function exportFileNameOf(
  db: Executor,
  merchantId: string,
  what: "invoices" | "payments" | "receivables",
  query: { from?: string | undefined; to?: string | undefined },
  today = utcToday(),
): Promise<string> {
  const owner = await exportOwnerNames(db, merchantId);
  const domain = owner.email.split("@")[1]?.replace(/\.[^.]+$/, "") ?? null;
  return exportFileName([owner.name, owner.defaultName, domain], what, query.from, query.to, today);
}

/**
 * An export's download of the actor's own merchant for a validated query (the range checked
 * against `params`): its rows read batch by batch in list order, streamed as CSV under its file
 * name. What tells the invoices' export from the payments' is what this takes.
 */
export async function csvExport<Row extends { list_at: string; id: string }>(
  db: Executor,
  actor: Actor,
  params: Record<string, string>,
  query: z.infer<typeof ExportQuerySchema>,
  what: {
    name: "invoices" | "payments";
    header: readonly string[];
    readBatch: (merchantId: string, range: ExportRange, after: ListKey | null) => Promise<Row[]>;
    cellsOf: (row: Row) => readonly (string | null)[];
  },
): Promise<Response> {
  const merchantId = ownMerchantId(actor.identity);
  const range = exportRange(params, query);
  const body = csvStream(
    what.name,
    what.header,
    (after) => what.readBatch(merchantId, range, after),
    (row) => ({ at: row.list_at, id: row.id }),
    what.cellsOf,
    query.bom !== "false",
  );
  return new Response(body, {
    status: 200,
    headers: csvHeaders(await exportFileNameOf(db, merchantId, what.name, query)),
  });
}
