import { z } from "@hono/zod-openapi";
import { csvRow } from "../../domain/csv.ts";
import type { ListKey } from "../../domain/listCursor.ts";
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
});

/** The moments an export covers, from its validated query; a reversed range is a 400. */
export function exportRange(
  params: Record<string, string>,
  query: z.infer<typeof ExportQuerySchema>,
): { from?: Date; before?: Date } {
  assertKnownParams(params, ["from", "to"]);
  const range = {
    ...(query.from ? { from: startOf(query.from) } : {}),
    ...(query.to ? { before: endOf(query.to) } : {}),
  };
  assertRanges([{ from: range.from, to: range.before, path: "to" }]);
  return range;
}

/**
 * A CSV body streamed batch by batch, in constant memory: the stream asks for the next batch
 * only when the client has taken the previous one (pull), so a slow client holds one batch, not
 * the export. Each batch is one keyset read after the last row of the one before.
 */
export function csvStream<Row>(
  header: readonly string[],
  readBatch: (after: ListKey | null) => Promise<Row[]>,
  keyOf: (row: Row) => ListKey,
  cellsOf: (row: Row) => readonly (string | null)[],
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: ListKey | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(csvRow(header)));
          return;
        }
        const rows = await readBatch(after);
        const last = rows.at(-1);
        if (!last) {
          controller.close();
          return;
        }
        after = keyOf(last);
        controller.enqueue(encoder.encode(rows.map((row) => csvRow(cellsOf(row))).join("")));
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

/** The file name's date part: the range given, or `all`. */
export const rangeLabel = (query: { from?: string | undefined; to?: string | undefined }) =>
  `${(query.from ?? "start").slice(0, 10)}_${(query.to ?? "now").slice(0, 10)}`;
