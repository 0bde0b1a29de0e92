import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";
import { runCli } from "./run.ts";

type Json = Record<string, unknown>;
type Page = { data: Json[]; next_cursor: string | null };

describe("the remit command over the API's lists, voids, refunds, exports, events and webhooks", () => {
  let stack: TestStack;
  let acme: Merchant;
  let dir: string;
  const invoiceIds: string[] = [];
  let slug: string;

  beforeAll(async () => {
    stack = await startStack();
    acme = await claimedMerchant(stack.db);
    dir = await mkdtemp(path.join(tmpdir(), "remit-cli-"));
    for (const price of ["10.00", "200.00", "3000.00"]) {
      const response = await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest({
          merchant_email: acme.email,
          line_items: [{ description: `Work ${price}`, quantity: 1, unit_price: price }],
        }),
        headers: bearer(acme.key),
      });
      expect(response.status).toBe(201);
      invoiceIds.push(((await response.json()) as { invoice_id: string }).invoice_id);
    }
    const link = await stack.request("/api/links", {
      method: "POST",
      json: linkRequest({ merchant_email: acme.email, amount: "5.00" }),
      headers: bearer(acme.key),
    });
    expect(link.status).toBe(201);
    slug = ((await link.json()) as { slug: string }).slug;
  });
  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The CLI as the merchant: its key in REMIT_API_KEY, the stack's API in REMIT_API_URL. */
  const remit = (args: string[], key: string | null = acme.key) =>
    runCli(args, {
      env: { REMIT_API_URL: stack.api.url, ...(key ? { REMIT_API_KEY: key } : {}) },
    });

  test("invoices list: a table a page at a time, --cursor for the next, --all for every page", async () => {
    const first = await remit(["invoices", "list", "--limit", "2"]);
    expect(first.code).toBe(0);
    const lines = first.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^NUMBER\s+STATUS\s+VENDOR\s+TOTAL/);
    // Newest first.
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(["INV-0003", "INV-0002"]);
    const cursor = /more: --cursor (\S+)/.exec(first.stderr)?.[1];
    expect(cursor).toBeTruthy();

    const next = await remit([
      "invoices",
      "list",
      "--limit",
      "2",
      "--cursor",
      cursor ?? "",
      "--json",
    ]);
    expect(next.code).toBe(0);
    const page = JSON.parse(next.stdout) as Page;
    expect(page.data.map((i) => i.invoice_number)).toEqual(["INV-0001"]);
    expect(page.next_cursor).toBeNull();

    const all = JSON.parse(
      (await remit(["invoices", "list", "--limit", "1", "--all", "--json"])).stdout,
    ) as Page;
    expect(all.data.map((i) => i.invoice_id)).toEqual([...invoiceIds].reverse());
  });

  test("filters: typed amounts through parseTypedUsdc, a bad one is a usage error calling nothing", async () => {
    const between = JSON.parse(
      (
        await remit([
          "invoices",
          "list",
          "--amount-min",
          "100",
          "--amount-max",
          " 2999.5 ",
          "--json",
        ])
      ).stdout,
    ) as Page;
    expect(between.data.map((i) => i.total_amount)).toEqual(["200.00"]);
    const comma = await remit(["invoices", "list", "--amount-min", "1,000"]);
    expect(comma.code).toBe(64);
    expect(comma.stderr).toContain("--amount-min: 1,000: write the amount without separators");
    const typo = await remit(["invoices", "list", "--status", "payed"]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("status");
  });

  test("invoices void, then refund refused: the API's answers, readable or --json", async () => {
    const id = invoiceIds[0] ?? "";
    const voided = await remit(["invoices", "void", id]);
    expect(voided.code).toBe(0);
    expect(voided.stdout).toBe("INV-0001: void\n");
    const voids = JSON.parse(
      (await remit(["invoices", "list", "--status", "void", "--json"])).stdout,
    ) as Page;
    expect(voids.data.map((i) => i.invoice_id)).toEqual([id]);
    const again = await remit(["invoices", "void", id, "--json"]);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr)).toMatchObject({ error: { message: expect.any(String) } });
    // Nothing was paid: nothing to refund, a 4xx (exit 1) with the API's message.
    const refund = await remit(["invoices", "refund", invoiceIds[1] ?? "", "--amount", "1"]);
    expect(refund.code).toBe(1);
    expect(refund.stderr).toMatch(/^error: /);
    const badAmount = await remit(["invoices", "refund", id, "--amount", "1e2"]);
    expect(badAmount.code).toBe(64);
  });

  test("payouts: the managed wallet's state, a payout to an address that is not a payout wallet refused", async () => {
    // The merchant's managed invoices made its managed wallet; nothing was paid into it.
    const list = await remit(["payouts", "list"]);
    expect(list).toMatchObject({ code: 0, stderr: "" });
    expect(list.stdout).toMatch(
      /^managed wallet 0x[0-9a-fA-F]{40}: balance 0\.00 USDC, reserved 0\.00, available 0\.00\n$/,
    );
    expect(JSON.parse((await remit(["payouts", "list", "--json"])).stdout)).toMatchObject({
      payouts: [],
      managed_wallet: { balance: "0.00", reserved: "0.00", available: "0.00" },
    });
    const stranger = await remit([
      "payouts",
      "create",
      "--amount",
      "5",
      "--to",
      "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
    ]);
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toContain("registered payout wallets");
    expect(await stack.db.selectFrom("app.payouts").select("id").execute()).toEqual([]);
  });

  test("links list and get; payments list with nothing paid", async () => {
    const list = await remit(["links", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${slug}\\s+pending\\s+5.00`, "m"));
    const got = JSON.parse((await remit(["links", "get", slug])).stdout) as Json;
    expect(got).toMatchObject({ slug, amount: "5.00" });
    const payments = await remit(["payments", "list"]);
    expect(payments).toMatchObject({ code: 0, stdout: "", stderr: "no rows\n" });
    expect(JSON.parse((await remit(["payments", "list", "--json"])).stdout)).toEqual({
      data: [],
      next_cursor: null,
    });
  });

  test("export: the CSV streamed to stdout, or to -o file, byte for byte the API's", async () => {
    // The bytes (a Response's text() would drop the byte-order mark the export starts with).
    const bytesOf = async (response: Response) =>
      Buffer.from(await response.arrayBuffer()).toString("utf8");
    const direct = await bytesOf(
      await stack.request("/api/exports/invoices.csv", { headers: bearer(acme.key) }),
    );
    expect(direct.startsWith("\uFEFF")).toBe(true);
    const out = await remit(["export", "invoices"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(direct);
    expect(direct.split("\n").length).toBeGreaterThan(3);
    const file = path.join(dir, "payments.csv");
    const written = await remit(["export", "payments", "--from", "2020-01-01", "-o", file]);
    expect(written.code).toBe(0);
    expect(written.stdout).toBe("");
    expect(await readFile(file, "utf8")).toBe(
      await bytesOf(
        await stack.request("/api/exports/payments.csv?from=2020-01-01", {
          headers: bearer(acme.key),
        }),
      ),
    );
  });

  test("webhooks add, list and test; the test event in events list", async () => {
    const added = await remit([
      "webhooks",
      "add",
      "http://127.0.0.1:9/hooks",
      "--events",
      "invoice.paid",
    ]);
    expect(added.code).toBe(0);
    const endpointId = /^endpoint (\S+): http:\/\/127\.0\.0\.1:9\/hooks \(invoice\.paid\)$/m.exec(
      added.stdout,
    )?.[1];
    expect(endpointId).toBeTruthy();
    expect(added.stdout).toMatch(/^secret \(shown once\): whsec_\S+$/m);
    const list = await remit(["webhooks", "list"]);
    expect(list.stdout).toMatch(
      new RegExp(`^${endpointId}\\s+http://127.0.0.1:9/hooks\\s+invoice.paid\\s+true$`, "m"),
    );
    const sent = await remit(["webhooks", "test", endpointId ?? "", "--json"]);
    expect(sent.code).toBe(0);
    const queued = JSON.parse(sent.stdout) as Json;
    expect(queued.type).toBe("webhook.test");
    const events = JSON.parse(
      (await remit(["events", "list", "--type", "webhook.test", "--json"])).stdout,
    ) as Page;
    expect(events.data.map((e) => e.event_id)).toEqual([queued.event_id]);
    const table = await remit(["events", "list"]);
    expect(table.stdout).toContain(`webhook.test`);
  });

  test("no key: the API's 401, exit 1; an unknown subcommand is still a usage error", async () => {
    const anonymous = await remit(["invoices", "list"], null);
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toMatch(/^error: /);
    expect((await remit(["invoices", "frobnicate", "x"])).code).toBe(64);
  });
});
