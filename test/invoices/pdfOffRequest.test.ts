import { createHash } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { renderStoredDocument } from "../../app/documentPdf.ts";
import { findDocumentPdf, storePdfOnce } from "../../db/queries/documentParts.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import { waitFor } from "../../internal/process.ts";
import { renderInvoicePdf } from "../../pdf/invoiceDocument.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "./fixtures.ts";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

// Issue 47: no PDF on the request path. A creation stores the invoice and answers; the worker
// renders the stored record; a download that comes first renders the same record, to the same
// bytes, and stores them. One record, one PDF, whoever renders it first.
describe("an invoice's PDF, rendered off the request path", () => {
  let stack: TestStack;
  beforeAll(async () => {
    // No worker at first: what a creation leaves, and what a download does before the worker.
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const create = async (overrides: Record<string, unknown> = {}) => {
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest(overrides),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Record<string, string>;
  };
  const download = async (path: string) => {
    const response = await stack.request(path);
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  };
  const stored = (kind: "invoice" | "creditNote", id: string) =>
    findDocumentPdf(stack.db, kind, id);
  const renderJobs = async (kind: "invoice" | "creditNote", id: string) =>
    Number(
      (
        await sql<{
          n: string;
        }>`select count(*)::text as n from graphile_worker.jobs where key = ${jobKey.pdf(kind, id)}`.execute(
          stack.db,
        )
      ).rows[0]?.n,
    );
  /** The stored document rendered again, in this process, by the code the worker runs. */
  const renderAgain = (kind: "invoice" | "creditNote", id: string) =>
    renderStoredDocument(
      {
        db: stack.db,
        pdf: { render: renderInvoicePdf },
        baseUrl: stack.api.url,
        payUrl: stack.api.url,
      },
      kind,
      id,
    );

  test("creation answers with no PDF stored, its render queued in the same commit", async () => {
    const created = await create({ send_now: false });
    expect(created.pdf_url).toBe(`${stack.api.url}/api/invoices/${created.invoice_id}/pdf`);
    expect(await stored("invoice", created.invoice_id ?? "")).toBeUndefined();
    expect(await renderJobs("invoice", created.invoice_id ?? "")).toBe(1);
  });

  test("a download before the worker renders the stored record, stores it, and is what the worker would store", async () => {
    const created = await create({ send_now: false });
    const id = created.invoice_id ?? "";
    const first = await download(`/api/invoices/${id}/pdf`);
    expect(first.subarray(0, 5).toString()).toBe("%PDF-");
    // Stored by that download: every later reader gets these bytes.
    const kept = await stored("invoice", id);
    expect(kept?.pdf.equals(first)).toBe(true);
    expect(kept?.sha256).toBe(sha256(first));
    // The worker's render of the same record: the same bytes.
    expect((await renderAgain("invoice", id))?.equals(first)).toBe(true);
    // The hash the detail reports, the vendor's download by slug, again the same.
    const detail = (await (await stack.request(`/api/invoices/${id}`)).json()) as Record<
      string,
      string
    >;
    expect(detail.pdf_sha256).toBe(sha256(first));
    expect((await download(`/api/invoices/by-slug/${created.slug}/pdf`)).equals(first)).toBe(true);
  });

  test("the detail asked first (its pdf_sha256) stores the PDF the download then serves", async () => {
    const created = await create({ send_now: false });
    const id = created.invoice_id ?? "";
    const detail = (await (await stack.request(`/api/invoices/${id}`)).json()) as Record<
      string,
      string
    >;
    expect(detail.pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(sha256(await download(`/api/invoices/${id}/pdf`))).toBe(detail.pdf_sha256);
  });

  test("the worker stores the PDF; the email, the download and the detail carry those bytes; a replay stores nothing new", async () => {
    const worker = stack.startWorker();
    try {
      // An invoice created before the worker started, already downloaded: its job keeps the bytes.
      const early = await create({ send_now: false });
      const earlyBytes = await download(`/api/invoices/${early.invoice_id}/pdf`);

      const created = await create({ vendor_email: "pdf-off-request@example.com" });
      const id = created.invoice_id ?? "";
      const email = await stack.waitForEmail((message) =>
        message.to.includes("pdf-off-request@example.com"),
      );
      await waitFor("the render jobs done", async () => {
        const left =
          (await renderJobs("invoice", id)) + (await renderJobs("invoice", early.invoice_id ?? ""));
        return left === 0;
      });
      const kept = await stored("invoice", id);
      expect(kept).toBeDefined();
      const [attachment] = email.attachments;
      expect(attachment?.filename).toBe(`${created.invoice_number}.pdf`);
      expect(
        Buffer.from(attachment?.content ?? "", "base64").equals(kept?.pdf ?? Buffer.alloc(0)),
      ).toBe(true);
      expect((await download(`/api/invoices/${id}/pdf`)).equals(kept?.pdf ?? Buffer.alloc(0))).toBe(
        true,
      );
      expect((await renderAgain("invoice", id))?.equals(kept?.pdf ?? Buffer.alloc(0))).toBe(true);
      expect((await stored("invoice", early.invoice_id ?? ""))?.pdf.equals(earlyBytes)).toBe(true);

      // The job run again (a retry, a replay after a restart): it finds the PDF and keeps it.
      await sql`select graphile_worker.add_job(${TASK.renderPdf}, json_build_object('kind', 'invoice', 'id', ${id}::uuid), job_key => ${jobKey.pdf("invoice", id)})`.execute(
        stack.db,
      );
      await waitFor(
        "the replayed render job done",
        async () => (await renderJobs("invoice", id)) === 0,
      );
      expect((await stored("invoice", id))?.pdf.equals(kept?.pdf ?? Buffer.alloc(0))).toBe(true);
    } finally {
      await worker.stop();
    }
  });

  test("two renders racing to store: the first stored is the one kept, and the one every reader gets", async () => {
    const created = await create({ send_now: false });
    const id = created.invoice_id ?? "";
    const rendered = (await renderAgain("invoice", id)) ?? Buffer.alloc(0);
    const first = await storePdfOnce(stack.db, "invoice", id, {
      pdf: rendered,
      sha256: sha256(rendered),
    });
    expect(first.pdf.equals(rendered)).toBe(true);
    // Bytes that differ (a render by other code, say) never replace what is stored.
    const other = Buffer.concat([rendered, Buffer.from("\n%other")]);
    const second = await storePdfOnce(stack.db, "invoice", id, {
      pdf: other,
      sha256: sha256(other),
    });
    expect(second.pdf.equals(rendered)).toBe(true);
    expect((await download(`/api/invoices/${id}/pdf`)).equals(rendered)).toBe(true);
    const { rows } = await sql<{
      n: string;
    }>`select count(*)::text as n from app.invoice_pdfs where invoice_id = ${id}`.execute(stack.db);
    expect(rows[0]?.n).toBe("1");
  });

  test("a credit note is stored without its PDF; its download renders and stores the same bytes", async () => {
    const invoice = await create({ vendor_email: "credit-pdf@example.com" });
    const response = await stack.request(`/api/invoices/${invoice.invoice_id}/credit-notes`, {
      method: "POST",
      json: {
        lines: [{ description: "Discount", quantity: 1, unit_price: "10.00" }],
        reason: "Late delivery",
      },
    });
    expect(response.status).toBe(201);
    const note = (await response.json()) as Record<string, string>;
    const id = note.credit_note_id ?? "";
    // The 201 carries its hash: the PDF was stored from its rows, after the commit.
    const kept = await stored("creditNote", id);
    expect(kept?.sha256).toBe(note.pdf_sha256);
    expect(
      (await download(`/api/credit-notes/${id}/pdf`)).equals(kept?.pdf ?? Buffer.alloc(0)),
    ).toBe(true);
    expect((await renderAgain("creditNote", id))?.equals(kept?.pdf ?? Buffer.alloc(0))).toBe(true);
    expect(await renderJobs("creditNote", id)).toBe(1);
  });
});
