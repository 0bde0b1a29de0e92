import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { bearer, claimedMerchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { runCli, startTerminal } from "./run.ts";

type Json = Record<string, unknown>;

/** A taxed invoice with what EN 16931 needs of it: both parties' countries and tax IDs. */
const taxedRequest = (overrides: Json = {}) =>
  invoiceRequest({
    merchant_tax_id: "DE123456789",
    vendor_tax_id: "FR12345678901",
    merchant_country: "DE",
    vendor_country: "FR",
    line_items: [{ description: "Design work", quantity: 2, unit_price: "75.00", tax_rate: "19" }],
    ...overrides,
  });

/**
 * `remit credit-notes …` and `remit invoices einvoice` against the running service: credit
 * notes issued from the command line change the invoice as the API says; PDFs and e-invoices
 * are written byte for byte as the API serves them, under the name it gives; an e-invoice the
 * API refuses names the fields to add and exits 1, writing nothing.
 */
describe("remit credit-notes and e-invoices", () => {
  let stack: TestStack;
  const dirs: string[] = [];
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  const emptyDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "remit-cli-credit-"));
    dirs.push(dir);
    return dir;
  };
  /** A merchant of this test's own, with a key: its calls, its invoices, its CLI's env. */
  const merchant = async () => {
    const { email, key } = await claimedMerchant(stack.db);
    const headers = bearer(key);
    const json = async (pathname: string, init: { method?: string; json?: unknown } = {}) => {
      const response = await stack.request(pathname, { ...init, headers });
      const body = (await response.json()) as Json;
      expect(response.status, JSON.stringify(body)).toBeLessThan(300);
      return body;
    };
    const env = { REMIT_API_KEY: key };
    return {
      env,
      /** The CLI with this merchant's key, against the stack. */
      cli: (args: string[], options: { stdin?: string; cwd?: string } = {}) =>
        runCli([...args, "--api", stack.api.url], { ...options, env }),
      json,
      text: async (pathname: string) => (await stack.request(pathname, { headers })).text(),
      bytes: async (pathname: string) =>
        Buffer.from(await (await stack.request(pathname, { headers })).arrayBuffer()),
      createInvoice: (body: Json) =>
        json("/api/invoices", { method: "POST", json: { ...body, merchant_email: email } }),
      creditNotesOf: async (invoiceId: unknown) =>
        (await json(`/api/credit-notes?invoice_id=${invoiceId}`)).credit_notes as Json[],
    };
  };

  test("a partial credit note from --stdin lines, then the rest with --full: the invoice follows", async () => {
    const { cli, json, text, createInvoice, creditNotesOf } = await merchant();
    const invoice = await createInvoice(invoiceRequest());
    const id = invoice.invoice_id as string;
    expect(invoice).toMatchObject({ total_amount: "150.125", status: "sent" });

    const partial = await cli(
      ["credit-notes", "create", id, "--stdin", "--reason", "One day of design billed twice"],
      {
        stdin: JSON.stringify({
          lines: [{ description: "Design work", quantity: 1, unit_price: "75.00" }],
        }),
      },
    );
    expect(partial.code, partial.stderr).toBe(0);
    const [first] = await creditNotesOf(id);
    expect(first).toMatchObject({
      total_amount: "75.00",
      full: false,
      reason: "One day of design billed twice",
    });
    expect(partial.stdout).toBe(
      `${first?.credit_note_number} credits ${invoice.invoice_number}: 75.00 USDC (subtotal 75.00, tax 0.00)\n${first?.pdf_url}\n`,
    );
    expect(await json(`/api/invoices/${id}`)).toMatchObject({
      status: "sent",
      credited_amount: "75.00",
      amount_due: "75.125",
    });

    // --json prints the API's answer; the same key again is the same credit note, not a second.
    const key = randomUUID();
    const full = ["credit-notes", "create", id, "--full", "--reason", "Order cancelled"];
    const rest = await cli([...full, "--json", "--idempotency-key", key]);
    expect(rest.code, rest.stderr).toBe(0);
    const second = JSON.parse(rest.stdout) as Json;
    expect(second).toMatchObject({ total_amount: "75.125", full: true, invoice_id: id });
    const retried = await cli([...full, "--json", "--idempotency-key", key]);
    expect(retried.code, retried.stderr).toBe(0);
    expect((JSON.parse(retried.stdout) as Json).credit_note_id).toBe(second.credit_note_id);
    expect(await json(`/api/invoices/${id}`)).toMatchObject({
      status: "void",
      credited_amount: "150.125",
      amount_due: "0.00",
    });

    // Nothing left to credit: the API's refusal, exit 1.
    const again = await cli([...full]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: /);
    expect(await creditNotesOf(id)).toHaveLength(2);

    const listed = await cli(["credit-notes", "list", "--invoice-id", id]);
    expect(listed.code, listed.stderr).toBe(0);
    const rows = listed.stdout.trim().split("\n");
    expect(rows[0]).toMatch(/^NUMBER\s+INVOICE\s+ISSUED\s+TOTAL\s+REASON\s+ID$/);
    expect(rows.slice(1).map((row) => row.split(/\s+/)[0])).toEqual([
      second.credit_note_number,
      first?.credit_note_number,
    ]);
    const listedJson = await cli(["credit-notes", "list", "--invoice", id, "--json"]);
    expect(listedJson.stdout).toBe(`${await text(`/api/credit-notes?invoice_id=${id}`)}\n`);
    const shown = await cli(["credit-notes", "get", second.credit_note_id as string]);
    expect(shown.stdout).toBe(`${await text(`/api/credit-notes/${second.credit_note_id}`)}\n`);
  });

  test("what is checked before any call: --full or --stdin, and the API's own schema", async () => {
    const nowhere = ["--api", "http://127.0.0.1:9"];
    const neither = await runCli(["credit-notes", "create", "x", "--reason", "r", ...nowhere]);
    expect(neither.code).toBe(64);
    expect(neither.stderr).toContain("--full (everything the invoice still asks for)");
    const both = await runCli(["credit-notes", "create", "x", "--full", "--stdin", ...nowhere]);
    expect(both.code).toBe(64);
    const unknown = await runCli(["credit-notes", "create", "x", "--stdin", ...nowhere], {
      stdin: JSON.stringify({ amount: "10.00", reason: "r" }),
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("amount: is not a known field");
    expect(unknown.stderr).not.toContain("cannot reach");
    const noReason = await runCli(["credit-notes", "create", "x", "--full", "--json", ...nowhere]);
    expect(noReason.code).toBe(1);
    const fields = (JSON.parse(noReason.stderr) as { error: { fields: Json[] } }).error.fields;
    expect(fields.map((field) => field.path)).toEqual(["reason"]);
  });

  test("a credit note's PDF and e-invoice, and an invoice's UBL: the API's bytes under its names", async () => {
    const { cli, json, bytes, createInvoice } = await merchant();
    const invoice = await createInvoice(taxedRequest());
    const id = invoice.invoice_id as string;
    const note = await json(`/api/invoices/${id}/credit-notes`, {
      method: "POST",
      json: {
        lines: [{ description: "Design work", quantity: 1, unit_price: "75.00", tax_rate: "19" }],
        reason: "One day billed twice",
      },
    });
    const noteId = note.credit_note_id as string;
    const dir = await emptyDir();

    const pdf = await cli(["credit-notes", "pdf", noteId], { cwd: dir });
    expect(pdf.code, pdf.stderr).toBe(0);
    const pdfName = `${note.credit_note_number}.pdf`;
    expect(pdf.stderr).toContain(`wrote ${pdfName}`);
    const pdfBytes = await readFile(path.join(dir, pdfName));
    expect(pdfBytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdfBytes.equals(await bytes(`/api/credit-notes/${noteId}/pdf`))).toBe(true);

    const ubl = await cli(["invoices", "einvoice", id, "--format", "ubl"], {
      cwd: dir,
    });
    expect(ubl.code, ubl.stderr).toBe(0);
    const ublName = `${invoice.invoice_number}-ubl.xml`;
    const xml = await readFile(path.join(dir, ublName));
    expect(xml.equals(await bytes(`/api/invoices/${id}/einvoice?format=ubl`))).toBe(true);
    const document = xml.toString("utf8");
    expect(document).toMatch(/<(\w+:)?Invoice\b/);
    expect(document).toContain(`<cbc:ID>${invoice.invoice_number}</cbc:ID>`);
    expect(document).toContain(`<cbc:PayableAmount currencyID="USD">${invoice.total_amount}<`);

    const output = path.join(dir, "note.xml");
    const cii = await cli(["credit-notes", "einvoice", noteId, "--format", "cii", "-o", output]);
    expect(cii.code, cii.stderr).toBe(0);
    expect(
      (await readFile(output)).equals(
        await bytes(`/api/credit-notes/${noteId}/einvoice?format=cii`),
      ),
    ).toBe(true);
    expect((await readdir(dir)).sort()).toEqual([ublName, pdfName, "note.xml"].sort());
  });

  test("an e-invoice the API refuses: the fields to add, exit 1, no file", async () => {
    const { cli, createInvoice } = await merchant();
    const { merchant_country: _m, vendor_country: _v, ...withoutCountries } = taxedRequest();
    const invoice = await createInvoice(withoutCountries);
    const dir = await emptyDir();
    const refused = await cli(
      ["invoices", "einvoice", invoice.invoice_id as string, "--format", "cii"],
      { cwd: dir },
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    const lines = refused.stderr.trim().split("\n");
    expect(lines[0]).toMatch(/^error: .*merchant_country, vendor_country/);
    expect(lines.slice(1).map((line) => line.trim().split(":")[0])).toEqual([
      "merchant_country",
      "vendor_country",
    ]);
    expect(lines.slice(1).every((line) => line.endsWith("[required]"))).toBe(true);
    const asJson = await cli(
      ["invoices", "einvoice", invoice.invoice_id as string, "--format", "ubl", "--json"],
      { cwd: dir },
    );
    expect(asJson.code).toBe(1);
    const { error } = JSON.parse(asJson.stderr) as { error: { code: string; fields: Json[] } };
    expect(error.code).toBe("einvoice_fields_missing");
    expect(error.fields.map((field) => field.path)).toEqual(
      expect.arrayContaining(["merchant_country", "vendor_country"]),
    );
    const badFormat = await cli(
      ["invoices", "einvoice", invoice.invoice_id as string, "--format", "pdf"],
      { cwd: dir },
    );
    expect(badFormat.code).toBe(64);
    expect(await readdir(dir)).toEqual([]);
  });

  /** `credit-notes create` on a real terminal, answered `key` at its confirmation. */
  async function createOnTerminal(invoice: Json, key: "y" | "n", env: Record<string, string>) {
    const terminal = await startTerminal(
      `${process.execPath} ${path.join(process.cwd(), "cli/remit.mjs")} credit-notes create ${invoice.invoice_id} --full --reason Cancelled`,
      { REMIT_API_URL: stack.api.url, ...env },
    );
    try {
      await terminal.waitFor(
        new RegExp(`${invoice.invoice_number} to Globex Corporation: total 150\\.125 USDC`),
      );
      await terminal.waitFor(/Everything it still asks for[\s\S]*Reason: Cancelled/);
      await terminal.waitFor(/Issue this credit note on INV-\d+\? It cannot be withdrawn/);
      await terminal.press(key);
      await terminal.waitFor(
        key === "y" ? /CN-\d{4} credits INV-\d{4}: 150\.125 USDC/ : /Not issued\./,
      );
      return await terminal.screen();
    } finally {
      await terminal.stop();
    }
  }

  test("on a terminal it asks first: No issues nothing, Yes issues it", async () => {
    const { env, createInvoice, creditNotesOf } = await merchant();
    const invoice = await createInvoice(invoiceRequest());
    const declined = await createOnTerminal(invoice, "n", env);
    expect(declined).not.toMatch(/error:/);
    expect(await creditNotesOf(invoice.invoice_id)).toEqual([]);
    await createOnTerminal(invoice, "y", env);
    expect(await creditNotesOf(invoice.invoice_id)).toMatchObject([
      { full: true, reason: "Cancelled" },
    ]);
  });
});
