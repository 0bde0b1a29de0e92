import { readFile } from "node:fs/promises";
import http from "node:http";
import { parse } from "csv-parse/sync";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seedMerchantVolume } from "../../bench/listsSeed.ts";
import { waitFor } from "../../internal/process.ts";
import { bearer, claimedMerchant, type Merchant, readKeyOf } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";

/** Invoices seeded: about 20 MB of CSV, several times what loopback's socket buffers hold. */
const INVOICES = 60_000;

/** The invoices export's bytes produced so far, from the API's /metrics. */
async function produced(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(text.match(/^remit_csv_export_bytes_total\{export="invoices"\} (\d+)$/m)?.[1] ?? 0);
}

/**
 * About what the kernel holds of a connection whose reader has stopped: the sender's socket buffer
 * at its largest (tcp_wmem's maximum: Linux grows it while the receiver's window is open) and the
 * receiver's at twice its starting size (tcp_rmem's default; it grows as the reader reads).
 */
async function socketBuffers(): Promise<number> {
  const field = async (file: string, index: number) =>
    Number((await readFile(`/proc/sys/net/ipv4/${file}`, "utf8")).trim().split(/\s+/)[index]);
  return (await field("tcp_wmem", 2)) + 2 * (await field("tcp_rmem", 1));
}

/** The export's bytes produced since `before`, once they have stopped growing (5 equal looks). */
async function settled(url: string, before: number, what: string): Promise<number> {
  let last = -1;
  let steady = 0;
  return waitFor(
    what,
    async () => {
      const written = (await produced(url)) - before;
      steady = written === last ? steady + 1 : 0;
      last = written;
      return steady >= 5 && written;
    },
    { timeoutMs: EVENT_MS, intervalMs: 200 },
  );
}

/**
 * GET /api/exports/invoices.csv read by a slow client: the server must produce the file only as
 * fast as the client takes it (the stream pulls the next batch from Postgres when the socket has
 * drained), so a client that stops reading holds the server at a bounded amount ahead of it, not
 * at the whole file buffered in the API's memory. Measured by the API's own count of CSV bytes
 * produced (remit_csv_export_bytes_total on /metrics): what the stream has handed to the HTTP
 * layer, whether or not it has reached the socket yet.
 */
describe("a CSV export streams at the reader's pace", () => {
  let stack: TestStack;
  let acme: Merchant;
  let reader: string;

  beforeAll(async () => {
    stack = await startStack();
    acme = await claimedMerchant(stack.db);
    reader = await readKeyOf(stack, acme);
    await seedMerchantVolume(stack.db, [acme.merchantId], {
      invoices: INVOICES,
      payments: 0,
      links: 0,
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("a paused reader holds the server back; the whole file then parses, every line item once", async () => {
    const before = await produced(stack.api.url);
    const chunks: Buffer[] = [];
    let received = 0;
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(
          `${stack.api.url}/api/exports/invoices.csv`,
          { headers: { authorization: `Bearer ${reader}` } },
          resolve,
        )
        .on("error", reject);
    });
    expect(response.statusCode).toBe(200);
    response.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
    });
    // The first chunk, then nothing: the client stops reading its socket.
    await waitFor("the first chunk", async () => received > 0);
    response.pause();
    const readBeforePause = received;

    // The server fills the socket's buffers, then must stop: its written bytes settle.
    const ahead = await settled(
      stack.api.url,
      before,
      "the server to stop while the client is paused",
    );

    response.resume();
    await new Promise((resolve, reject) => response.on("end", resolve).on("error", reject));
    const text = Buffer.concat(chunks).toString("utf8");
    const total = Buffer.byteLength(text);

    // Every byte produced reached the client; and while it was paused the server stopped at
    // what the socket's buffers and a batch or two hold (6 MB here), half the file at most.
    expect((await produced(stack.api.url)) - before).toBe(total);
    expect(total).toBeGreaterThan(2 * (await socketBuffers()));
    expect({ ahead, total, underHalf: ahead < total / 2 }).toEqual({
      ahead,
      total,
      underHalf: true,
    });
    expect(readBeforePause).toBeLessThan(total);

    // And the file is whole: RFC 4180, one row per line item, each invoice's lines in order.
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    const { rows: db } = await sql<{ lines: string; invoices: string; total: string }>`
      select count(*)::text as lines, count(distinct i.id)::text as invoices,
        sum(l.line_total)::text as total
      from app.invoice_line_items l join app.invoices i on i.id = l.invoice_id
      where i.merchant_id = ${acme.merchantId}`.execute(stack.db);
    expect(rows.length).toBe(Number(db[0]?.lines));
    expect(new Set(rows.map((r) => r.invoice_id)).size).toBe(INVOICES);
    expect(new Set(rows.map((r) => `${r.invoice_id}/${r.line}`)).size).toBe(rows.length);
    const units = (decimal: string) => {
      const [whole = "0", fraction = ""] = decimal.split(".");
      return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
    };
    expect(rows.reduce((sum, r) => sum + units(r.line_total as string), 0n)).toBe(
      BigInt(db[0]?.total ?? 0),
    );
  });

  test("a client that goes away stops the export: no more batches, the API carries on", async () => {
    const before = await produced(stack.api.url);
    await new Promise<void>((resolve, reject) => {
      const request = http.get(
        `${stack.api.url}/api/exports/invoices.csv`,
        { headers: { authorization: `Bearer ${reader}` } },
        (response) => {
          expect(response.statusCode).toBe(200);
          response.once("data", () => {
            request.destroy();
            resolve();
          });
        },
      );
      request.on("error", (error) => {
        if (!request.destroyed) reject(error);
      });
    });
    const sent = await settled(stack.api.url, before, "the export to stop after the client left");
    // What was produced before the connection closed: less than the socket's buffers could hold.
    expect(sent).toBeLessThan(await socketBuffers());
    const after = await stack.request("/api/invoices?limit=1", { headers: bearer(reader) });
    expect(after.status).toBe(200);
    expect(stack.api.output()).not.toMatch(/unhandled|"level":"(error|fatal)"/i);
  });
});
