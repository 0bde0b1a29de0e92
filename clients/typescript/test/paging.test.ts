import { afterEach, describe, expect, test } from "vitest";
import { Remit } from "../src/index.ts";
import { scriptedApi } from "./scriptedApi.ts";

let api: Awaited<ReturnType<typeof scriptedApi>> | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

/** A list of `total` invoices served `size` a page, the cursor being the next index. */
async function pagedInvoices(total: number, size: number) {
  api = await scriptedApi((request) => {
    const url = new URL(request.url, "http://api");
    const start = Number(url.searchParams.get("cursor") ?? "0");
    const end = Math.min(total, start + size);
    const data = Array.from({ length: end - start }, (_, i) => ({
      invoice_number: `INV-${String(total - start - i).padStart(4, "0")}`,
    }));
    return { status: 200, json: { data, next_cursor: end < total ? String(end) : null } };
  });
  return api;
}

describe("paged lists", () => {
  test("for await follows next_cursor to the last page, with the filters on every page", async () => {
    const { url, seen } = await pagedInvoices(5, 2);
    const remit = new Remit({ baseUrl: url, apiKey: "remit_sk_test" });
    const numbers: string[] = [];
    for await (const invoice of remit.invoices.list({ status: "sent,overdue", limit: 2 }))
      numbers.push(invoice.invoice_number);
    expect(numbers).toEqual(["INV-0005", "INV-0004", "INV-0003", "INV-0002", "INV-0001"]);
    expect(seen.map((r) => r.url)).toEqual([
      "/api/invoices?status=sent%2Coverdue&limit=2",
      "/api/invoices?status=sent%2Coverdue&limit=2&cursor=2",
      "/api/invoices?status=sent%2Coverdue&limit=2&cursor=4",
    ]);
  });

  test("nothing is requested until iterated; breaking out stops the requests", async () => {
    const { url, seen } = await pagedInvoices(10, 3);
    const list = new Remit({ baseUrl: url }).invoices.list();
    expect(seen).toHaveLength(0);
    const firstFour = await list.toArray(4);
    expect(firstFour.map((i) => i.invoice_number)).toEqual([
      "INV-0010",
      "INV-0009",
      "INV-0008",
      "INV-0007",
    ]);
    expect(seen).toHaveLength(2);
  });

  test("pages() gives each page whole; an empty list is one empty page", async () => {
    const { url } = await pagedInvoices(4, 3);
    const remit = new Remit({ baseUrl: url });
    const pages = [];
    for await (const page of remit.events.list({ type: "invoice.paid" }).pages()) pages.push(page);
    expect(pages.map((p) => [p.data.length, p.next_cursor])).toEqual([
      [3, "3"],
      [1, null],
    ]);
    await api?.stop();
    const empty = await pagedInvoices(0, 3);
    expect(await new Remit({ baseUrl: empty.url }).payments.list().toArray()).toEqual([]);
    expect(empty.seen).toHaveLength(1);
  });
});
