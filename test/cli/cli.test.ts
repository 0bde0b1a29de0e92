import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "../../internal/freePort.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { answerParties, answerTerms, remitTerminal, runCli, startTerminal } from "./run.ts";

type Json = Record<string, unknown>;

/** A local HTTP server that counts requests and answers `status`. */
async function countingServer(status = 200) {
  let requests = 0;
  const port = await freePort();
  const server = http.createServer((_, response) => {
    requests++;
    response.writeHead(status, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => requests,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("the remit command", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });
  const api = () => ["--api", stack.api.url];
  /** The one invoice of `merchant` in the database. */
  const invoiceOf = (merchant: string) =>
    stack.db
      .selectFrom("app.invoices")
      .selectAll()
      .where("merchant_email", "=", merchant)
      .executeTakeFirstOrThrow();

  test("--stdin creates the invoice and prints exactly what the API returns", async () => {
    const body = invoiceRequest();
    const key = randomUUID();
    const cli = await runCli(
      ["invoices", "create", "--stdin", "--idempotency-key", key, ...api()],
      { stdin: JSON.stringify(body) },
    );
    expect(cli.code).toBe(0);
    expect(cli.stderr).toBe("");
    // The same body under the same key: the API replays its original answer, byte for byte.
    const direct = await stack.request("/api/invoices", {
      method: "POST",
      json: body,
      headers: { "Idempotency-Key": key },
    });
    expect(cli.stdout).toBe(`${await direct.text()}\n`);
    const created = JSON.parse(cli.stdout) as Json;
    expect(created.invoice_number).toBe("INV-0001");
  });

  test("--dry-run validates, prints the totals and calls nothing", async () => {
    const counter = await countingServer();
    try {
      const body = invoiceRequest({
        line_items: [
          { description: "a", quantity: 3, unit_price: "0.333333" },
          { description: "b", quantity: 0.5, unit_price: "0.000001" },
        ],
      });
      const valid = await runCli(
        ["invoices", "create", "--stdin", "--dry-run", "--api", counter.url],
        { stdin: JSON.stringify(body) },
      );
      expect(valid.code).toBe(0);
      const preview = JSON.parse(valid.stdout) as Json;
      expect(preview).toMatchObject({
        valid: true,
        total_amount: "1.00",
        request: { send_now: true },
      });
      expect((preview.line_items as Json[]).map((l) => l.line_total)).toEqual([
        "0.999999",
        "0.000001",
      ]);
      // Nothing listens on this port: a dry run must not notice.
      const unreachable = await runCli(
        ["invoices", "create", "--stdin", "--dry-run", "--api", "http://127.0.0.1:9"],
        { stdin: JSON.stringify(body) },
      );
      expect(unreachable.code).toBe(0);
      const invalid = await runCli(
        ["invoices", "create", "--stdin", "--dry-run", "--api", counter.url],
        { stdin: JSON.stringify({ ...body, send_nwo: true }) },
      );
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toContain(
        'send_nwo: is not a known field; did you mean "send_now"? [unknown_field]',
      );
      expect(counter.count()).toBe(0);
    } finally {
      await counter.stop();
    }
  });

  test("validation errors are the API's own, field for field (--json)", async () => {
    const body = {
      ...invoiceRequest(),
      merchant_email: "nope",
      line_items: [{ description: "x", quantity: -1, unit_price: "1e2" }],
      wallet_type: "byo",
    };
    const cli = await runCli(["invoices", "create", "--stdin", "--json", ...api()], {
      stdin: JSON.stringify(body),
    });
    expect(cli.code).toBe(1);
    expect(cli.stdout).toBe("");
    const fromCli = (JSON.parse(cli.stderr) as { error: { fields: Json[] } }).error.fields;
    const fromApi = (
      (await (await stack.request("/api/invoices", { method: "POST", json: body })).json()) as {
        error: { fields: Json[] };
      }
    ).error.fields;
    expect(fromCli).toEqual(fromApi);
    expect(fromCli.length).toBe(4);
  });

  test("malformed JSON on stdin names the line and column", async () => {
    const cli = await runCli(["invoices", "create", "--stdin", ...api()], {
      stdin: '{\n  "merchant_email": "a@b.co",\n  "line_items": [,]\n}',
    });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain("stdin is not valid JSON: unexpected input at line 3, column 18");
  });

  test("the API unreachable or failing: exit 2 naming the URL", async () => {
    const port = await freePort();
    const down = await runCli(
      ["invoices", "create", "--stdin", "--api", `http://127.0.0.1:${port}`],
      { stdin: JSON.stringify(invoiceRequest()) },
    );
    expect(down.code).toBe(2);
    expect(down.stderr).toContain(
      `cannot reach the Remit API at http://127.0.0.1:${port}/api/invoices`,
    );
    expect(down.stderr).toMatch(/--api <url> or REMIT_API_URL/);
    // Without --api or REMIT_API_URL, the CLI goes where npm start listens: PORT.
    const byPort = await runCli(["invoices", "status", "x"], {
      env: { REMIT_API_URL: undefined, PORT: String(port) },
    });
    expect(byPort.stderr).toContain(`cannot reach the Remit API at http://localhost:${port}/`);
    const failing = await countingServer(503);
    try {
      const broken = await runCli(["invoices", "status", "x", "--api", failing.url]);
      expect(broken.code).toBe(2);
      expect(broken.stderr).toContain(`${failing.url}/api/invoices/x/status failed with HTTP 503`);
    } finally {
      await failing.stop();
    }
  });

  test("usage errors exit 64; --help and --version exit 0; a pipe without --stdin is refused", async () => {
    expect((await runCli(["invoices", "nonsense"])).code).toBe(64);
    expect((await runCli(["invoices", "create", "--bogus"])).code).toBe(64);
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("invoices");
    expect((await runCli(["--version"])).stdout.trim()).toBe("0.1.0");
    const piped = await runCli(["invoices", "create", ...api()], { stdin: "{}" });
    expect(piped.code).toBe(64);
    expect(piped.stderr).toContain("pass --stdin");
  });

  test("get, status, send and pdf", async () => {
    const created = JSON.parse(
      (
        await runCli(["invoices", "create", "--stdin", ...api()], {
          stdin: JSON.stringify(invoiceRequest({ send_now: false })),
        })
      ).stdout,
    ) as Json;
    const id = created.invoice_id as string;
    expect(JSON.parse((await runCli(["invoices", "status", id, ...api()])).stdout)).toEqual({
      status: "draft",
    });
    expect(JSON.parse((await runCli(["invoices", "send", id, ...api()])).stdout)).toMatchObject({
      status: "sent",
    });
    const again = await runCli(["invoices", "send", id, ...api()]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("only a draft can be sent");
    expect(JSON.parse((await runCli(["invoices", "get", id, ...api()])).stdout)).toMatchObject({
      invoice_id: id,
      stored_status: "sent",
    });
    const file = path.join(tmpdir(), `remit-${randomUUID()}.pdf`);
    const pdf = await runCli(["invoices", "pdf", id, "-o", file, ...api()]);
    expect(pdf.code).toBe(0);
    const downloaded = await readFile(file);
    await rm(file);
    expect(
      downloaded.equals(
        Buffer.from(await (await stack.request(`/api/invoices/${id}/pdf`)).arrayBuffer()),
      ),
    ).toBe(true);
    expect(
      (await runCli(["invoices", "get", "00000000-0000-4000-8000-000000000000", ...api()])).code,
    ).toBe(1);
  });

  test("pdf without -o names the file after the merchant and the invoice number", async () => {
    const created = JSON.parse(
      (
        await runCli(["invoices", "create", "--stdin", ...api()], {
          stdin: JSON.stringify(invoiceRequest({ merchant_name: "Acme Ltd.", send_now: false })),
        })
      ).stdout,
    ) as Json;
    const dir = await mkdtemp(path.join(tmpdir(), "remit-pdf-"));
    try {
      const pdf = await runCli(["invoices", "pdf", created.invoice_id as string, ...api()], {
        cwd: dir,
      });
      expect(pdf.code, pdf.stderr).toBe(0);
      const name = `acme-ltd-${created.invoice_number as string}.pdf`;
      expect(await readdir(dir)).toEqual([name]);
      expect(pdf.stderr).toContain(`wrote ${name}`);
      expect((await readFile(path.join(dir, name))).subarray(0, 5).toString()).toBe("%PDF-");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const link = {
    merchant_email: "shop@example.com",
    amount: "9.99",
    description: "Mug",
    wallet_type: "managed",
  };
  test("links create --stdin, with --dry-run", async () => {
    const dry = await runCli(
      ["links", "create", "--stdin", "--dry-run", "--api", "http://127.0.0.1:9"],
      { stdin: JSON.stringify(link) },
    );
    expect(dry.code).toBe(0);
    const created = await runCli(["links", "create", "--stdin", ...api()], {
      stdin: JSON.stringify(link),
    });
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ amount: "9.99", status: "pending" });
  });

  test("interactive: a real terminal creates an invoice with two line items", async () => {
    const merchant = `tty-${randomUUID()}@example.com`;
    const terminal = await remitTerminal("invoices create", stack.api.url);
    try {
      const { answer } = terminal;
      await answer(/Your email/, "not-an-email");
      await terminal.waitFor(/valid email/); // checked as typed, with the API's message
      await terminal.press("C-u");
      await answer(/Your email/, merchant);
      await answer(/business name/, "Tty Traders");
      await answer(/business address/, "2 Terminal Road");
      await answer(/Vendor's email/, "vendor@example.com");
      await answer(/Vendor's name/, "Vendor Co");
      await answer(/Vendor's address/, "");
      await answer(/What are the prices in/, ""); // USDC, the first
      await answer(/Line item 1[\s\S]*Description/, "Consulting");
      await answer(/Quantity/, "");
      await answer(/Unit price/, "120.00");
      await terminal.waitFor(/Add another line item/);
      await terminal.press("y");
      await answer(/Line item 2[\s\S]*Description/, "Travel");
      await terminal.waitFor(/Line item 2[\s\S]*Quantity/);
      await terminal.press("BSpace");
      await terminal.type("2");
      await terminal.press("Enter");
      await answer(/Line item 2[\s\S]*Unit price/, "15.50");
      await terminal.waitFor(/Line item 2[\s\S]*Add another line item/);
      await terminal.press("n");
      await answerTerms(terminal, "2099-06-30");
      await terminal.waitFor(/Total: 151\.00 USDC/);
      await terminal.waitFor(/Create this invoice/);
      await terminal.press("y");
      await terminal.waitFor(/Created INV-0001[\s\S]*\/i\/[1-9A-HJ-NP-Za-km-z]{12}[\s\S]*\/pdf/);
    } finally {
      await terminal.stop();
    }
    const invoice = await invoiceOf(merchant);
    expect(invoice).toMatchObject({
      vendor_name: "Vendor Co",
      total_amount: 151_000_000n,
      status: "draft",
    });
    const lines = await stack.db
      .selectFrom("app.invoice_line_items")
      .select(["description", "quantity"])
      .where("invoice_id", "=", invoice.id)
      .orderBy("position")
      .execute();
    expect(lines).toEqual([
      { description: "Consulting", quantity: "1" },
      { description: "Travel", quantity: "2" },
    ]);
  });

  /**
   * Answers every prompt of `remit invoices create` the way a person types: a fractional
   * quantity, a price without decimals, Enter at the due date, a lower-case wallet address.
   */
  async function typeEveryField(merchant: string, confirm: "y" | "n") {
    const terminal = await remitTerminal("invoices create", stack.api.url);
    try {
      const { answer } = terminal;
      await answer(/Your email/, merchant);
      await answer(/business name/, "Typed Traders");
      await answer(/business address/, "3 Prompt Street");
      await answer(/Vendor's email/, "vendor@example.com");
      await answer(/Vendor's name/, "Vendor Co");
      await answer(/Vendor's address/, "");
      await answer(/What are the prices in/, ""); // USDC, the first
      await answer(/Line item 1[\s\S]*Description/, "Design");
      await answer(/Quantity/, "2.5");
      await answer(/Unit price/, "100");
      await terminal.waitFor(/Add another line item/);
      await terminal.press("n");
      await answer(/Due date/, "");
      await answer(/Notes/, "");
      await terminal.waitFor(/Where should the money go/);
      await terminal.press("Down");
      await terminal.press("Enter");
      await answer(/Your wallet address/, "0xd8da6bf26964af9d7eed9e03e53415d37aa96045");
      await answer(/Webhook URL/, "");
      await terminal.waitFor(/Email the invoice to the vendor now/);
      await terminal.press("n");
      // Exactly what was typed: 2.5 (not 12.5), and 100 as 100.00.
      await terminal.waitFor(/Design: 2\.5 × 100\.00 = 250\.00 USDC/);
      await terminal.waitFor(/Create this invoice/);
      await terminal.press(confirm);
      await terminal.waitFor(confirm === "y" ? /Created INV-/ : /Not created\./);
      return await terminal.screen();
    } finally {
      await terminal.stop();
    }
  }

  test("interactive: every field typed is sent exactly as meant, defaults only on Enter", async () => {
    const merchant = `typed-${randomUUID()}@example.com`;
    const screen = await typeEveryField(merchant, "y");
    // Enter at the due date shows the date it took, not a blank line.
    const thirty = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    expect(screen).toMatch(
      new RegExp(`Due date \\(YYYY-MM-DD, Enter for ${thirty}\\)\\n\\S*\\s+${thirty}\\s*\\n`),
    );
    const invoice = await invoiceOf(merchant);
    const thirtyDaysOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    expect(invoice).toMatchObject({
      total_amount: 250_000_000n,
      wallet_type: "byo",
      wallet_address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
    });
    expect(String(invoice.due_date).slice(0, 10)).toBe(thirtyDaysOn);
    const [line] = await stack.db
      .selectFrom("app.invoice_line_items")
      .select(["quantity", "unit_price"])
      .where("invoice_id", "=", invoice.id)
      .execute();
    expect(line).toEqual({ quantity: "2.5", unit_price: 100_000_000n });
  });

  test("interactive: No at the confirmation says so once and creates nothing", async () => {
    const merchant = `declined-${randomUUID()}@example.com`;
    const screen = await typeEveryField(merchant, "n");
    expect(screen).not.toMatch(/error:/);
    expect(
      await stack.db
        .selectFrom("app.invoices")
        .select("id")
        .where("merchant_email", "=", merchant)
        .execute(),
    ).toEqual([]);
  });

  test("interactive: Ctrl-C leaves nothing created", async () => {
    const merchant = `ctrlc-${randomUUID()}@example.com`;
    const terminal = await startTerminal(
      `${process.execPath} ${path.join(process.cwd(), "cli/remit.mjs")} invoices create`,
      { REMIT_API_URL: stack.api.url },
    );
    try {
      await terminal.waitFor(/Your email/);
      await terminal.type(merchant);
      await terminal.press("Enter");
      await terminal.waitFor(/business name/);
      await terminal.press("C-c");
      await terminal.waitFor(/Cancelled: nothing was created/);
    } finally {
      await terminal.stop();
    }
    expect(
      await stack.db
        .selectFrom("app.merchants")
        .select("id")
        .where("email", "=", merchant)
        .execute(),
    ).toEqual([]);
  });

  /**
   * `--currency` on `remit invoices create` and `remit links create` (issue 45), and the
   * interactive create's "What are the prices in?": the request carries the currency, the
   * preview prices as the API does in it (priceInvoice: each line to the cent), and what the API
   * refuses is refused at the field before anything is sent.
   */
  describe("--currency", () => {
    // 1.5 × 33.33 is 49.995: USDC keeps it, a currency settles it to the cent.
    const body = invoiceRequest({
      line_items: [{ description: "Consulting", quantity: 1.5, unit_price: "33.33" }],
    });
    const invoicesCreate = (...flags: string[]) => ["invoices", "create", "--stdin", ...flags];

    test("--dry-run prices in the currency, as the API will", async () => {
      const offline = ["--api", "http://127.0.0.1:9"];
      const eur = await runCli(invoicesCreate("--dry-run", "--currency", "EUR", ...offline), {
        stdin: JSON.stringify(body),
      });
      expect(eur.code).toBe(0);
      expect(JSON.parse(eur.stdout)).toMatchObject({
        currency: "EUR",
        request: { currency: "EUR" },
        line_items: [{ unit_price: "33.33", line_total: "50.00" }],
        total_amount: "50.00",
      });
      const usdc = await runCli(invoicesCreate("--dry-run", ...offline), {
        stdin: JSON.stringify(body),
      });
      expect(JSON.parse(usdc.stdout)).toMatchObject({ currency: "USDC", total_amount: "49.995" });
    });

    test("what the API refuses is refused at its field, and nothing is sent", async () => {
      const unknown = await runCli(invoicesCreate("--currency", "XYZ", ...api()), {
        stdin: JSON.stringify(body),
      });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('currency: must be "USDC", "USD", "EUR" or "GBP"');
      expect(unknown.stderr).toContain("[invalid_enum]");
      const cents = await runCli(invoicesCreate("--currency", "EUR", "--json", ...api()), {
        stdin: JSON.stringify({
          ...body,
          line_items: [{ description: "x", quantity: 1, unit_price: "12.505" }],
        }),
      });
      expect(cents.code).toBe(1);
      const fields = (JSON.parse(cents.stderr) as { error: { fields: Json[] } }).error.fields;
      expect(fields).toEqual([
        {
          path: "line_items[0].unit_price",
          code: "too_many_decimals",
          message: "must have at most 2 decimals in EUR",
        },
      ]);
      // The JSON names another currency: which one was meant is not guessed.
      const conflict = await runCli(invoicesCreate("--currency", "EUR", ...api()), {
        stdin: JSON.stringify({ ...body, currency: "GBP" }),
      });
      expect(conflict.code).toBe(64);
      expect(conflict.stderr).toContain(
        '--currency EUR: the request on stdin has "currency": "GBP"',
      );
      expect(
        await stack.db
          .selectFrom("app.invoices")
          .select("id")
          .where("merchant_email", "=", body.merchant_email as string)
          .execute(),
      ).toEqual([]);
    });

    test("invoices and links are created in the currency", async () => {
      const invoice = await runCli(invoicesCreate("--currency", "EUR", ...api()), {
        stdin: JSON.stringify(body),
      });
      expect(invoice.code).toBe(0);
      expect(JSON.parse(invoice.stdout)).toMatchObject({ currency: "EUR", total_amount: "50.00" });

      const created = await runCli(["links", "create", "--stdin", "--currency", "GBP", ...api()], {
        stdin: JSON.stringify(link),
      });
      expect(created.code).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({ currency: "GBP", amount: "9.99" });
      const refused = await runCli(
        ["links", "create", "--stdin", "--dry-run", "--currency", "GBP", ...api()],
        { stdin: JSON.stringify({ ...link, amount: "9.999" }) },
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("amount: must have at most 2 decimals in GBP");
    });

    test("interactive: the prices' currency is asked, its rule checked as typed, the summary in it", async () => {
      const merchant = `tty-eur-${randomUUID()}@example.com`;
      const terminal = await remitTerminal("invoices create", stack.api.url);
      try {
        const { answer } = terminal;
        await answerParties(terminal, {
          merchantEmail: merchant,
          merchantName: "Euro Traders",
          merchantAddress: "1 Rue du Port, Marseille",
          vendorName: "Vendor SARL",
        });
        await terminal.waitFor(/What are the prices in\?/);
        await terminal.press("Down", "Down"); // USDC, USD, EUR
        await terminal.press("Enter");
        await answer(/Line item 1[\s\S]*Description/, "Consulting");
        await answer(/Quantity/, "1.5");
        await answer(/Unit price in EUR/, "33.335");
        await terminal.waitFor(/must have at most 2 decimals in EUR/);
        await terminal.press("C-u");
        await answer(/Unit price in EUR/, "33.33");
        await terminal.waitFor(/Add another line item/);
        await terminal.press("n");
        await answer(/Due date/, "2099-06-30");
        await answer(/Notes/, "");
        await answer(/Where should the money go/, "");
        await answer(/Webhook URL/, "");
        await terminal.waitFor(/Email the invoice to the vendor now/);
        await terminal.press("n");
        await terminal.waitFor(/Consulting: 1\.5 × 33\.33 = 50\.00 EUR/);
        await terminal.waitFor(/Total: 50\.00 EUR, due 2099-06-30/);
        await terminal.waitFor(/Create this invoice/);
        await terminal.press("y");
        await terminal.waitFor(/Created INV-0001/);
      } finally {
        await terminal.stop();
      }
      const invoice = await invoiceOf(merchant);
      expect(invoice).toMatchObject({ currency: "EUR", total_amount: 50_000_000n });
    });

    test("interactive: --currency answers the question, and one the API refuses stops before it", async () => {
      // Both at once: a tmux server whose last session ends exits, under a session starting.
      const [refused, flagged] = await Promise.all([
        remitTerminal("invoices create --currency eur", stack.api.url),
        remitTerminal("invoices create --currency GBP", stack.api.url),
      ]);
      try {
        await refused.waitFor(/currency: must be "USDC", "USD", "EUR" or "GBP"/);
        expect(await refused.screen()).not.toMatch(/Your email/);

        const { answer } = flagged;
        await answerParties(flagged, {
          merchantEmail: `tty-gbp-${randomUUID()}@example.com`,
          merchantName: "Sterling Ltd",
          merchantAddress: "1 High Street, Leeds",
          vendorName: "Vendor Ltd",
        });
        await flagged.waitFor(/Line item 1[\s\S]*Description/);
        expect(await flagged.screen()).not.toMatch(/What are the prices in/);
        await answer(/Description/, "Audit");
        await answer(/Quantity/, "");
        await flagged.waitFor(/Unit price in GBP/);
        await flagged.press("C-c");
        await flagged.waitFor(/Cancelled: nothing was created/);
      } finally {
        await flagged.stop();
        await refused.stop();
      }
    });
  });
});
