import { createHash } from "node:crypto";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, codeOf } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { freshAddress, invoiceApi, type Json, priced, until } from "../refunds/helpers.ts";

/**
 * Credit notes (issue 44): the one way to correct an issued invoice. A credit note lowers what
 * the invoice asks for, and its status and amount_due follow the money rules
 * (domain/moneyRules.ts, domain/creditNotes.ts): credited down to what arrived it is paid,
 * below it excess (the rest refundable through the existing refunds), in full with nothing
 * received void. Numbers are CN-0001… per merchant; bad requests are field-level 400s that
 * store nothing; a void of a sent invoice is itself a full credit note.
 */
describe("credit notes", () => {
  const chain = useChainForFile();
  let stack: TestStack;

  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ worker: true, indexer: true });
  });
  afterAll(async () => {
    await stack?.stop();
    await chain.revert();
  });

  /** A merchant of the test's own (an account and its key): its invoices, credit notes and reads. */
  async function asMerchant() {
    const merchant = await claimedMerchant(stack.db);
    const headers = bearer(merchant.key);
    const name = `Acme ${merchant.merchantId.slice(0, 8)}`;
    const invoices = invoiceApi(stack, headers);
    const get = (path: string) => stack.request(path, { headers });
    return {
      ...invoices,
      email: merchant.email,
      get: invoices.get,
      read: async (path: string) => answer(await get(path)),
      bytes: async (path: string) => Buffer.from(await (await get(path)).arrayBuffer()),
      // A name of its own: the emails' subjects name the merchant, so they are this test's.
      name,
      create: (overrides: Json) =>
        invoices.create({ merchant_email: merchant.email, merchant_name: name, ...overrides }),
      credit: (invoiceId: string, body: Json, extra: Record<string, string> = {}) =>
        stack.request(`/api/invoices/${invoiceId}/credit-notes`, {
          method: "POST",
          json: body,
          headers: { ...headers, ...extra },
        }),
      void: (invoiceId: string) =>
        stack.request(`/api/invoices/${invoiceId}/void`, { method: "POST", headers }),
      notesOf: async (invoiceId: string) =>
        (await answer(await get(`/api/credit-notes?invoice_id=${invoiceId}`))).body
          .credit_notes as Json[],
    };
  }
  type MerchantApi = Awaited<ReturnType<typeof asMerchant>>;
  const noteCount = async () =>
    Number(
      (
        await stack.db
          .selectFrom("app.credit_notes")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const pdfText = async (api: MerchantApi, path: string) => {
    const document = await getDocumentProxy(new Uint8Array(await api.bytes(path)));
    return (await extractText(document, { mergePages: true })).text;
  };
  /** Pays `amount` base units and waits until the invoice has counted it. */
  const pay = async (
    api: MerchantApi,
    invoiceId: string,
    depositAddress: string,
    amount: bigint,
    paid: string,
  ) => {
    await chain.payUsdc(devAccount(5), depositAddress as `0x${string}`, amount);
    return until(`${paid} counted`, async () => {
      const invoice = await api.get(invoiceId);
      return invoice.paid_amount === paid && invoice;
    });
  };

  test("a partial credit settles a partly paid invoice: paid, nothing due; the event, the PDF, the vendor's email", async () => {
    const api = await asMerchant();
    const invoice = await api.create(priced("30.00"));
    await pay(api, invoice.invoice_id, invoice.deposit_address, 20_000_000n, "20.00");
    expect((await api.get(invoice.invoice_id)).status).toBe("partial");

    const created = await answer(
      await api.credit(invoice.invoice_id, {
        lines: [{ description: "Discount agreed on the phone", quantity: 1, unit_price: "10.00" }],
        reason: "Ten off for the late delivery",
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      credit_note_number: "CN-0001",
      invoice_id: invoice.invoice_id,
      invoice_number: invoice.invoice_number,
      subtotal_amount: "10.00",
      tax_amount: "0.00",
      total_amount: "10.00",
      full: false,
      reason: "Ten off for the late delivery",
    });
    const noteId = String(created.body.credit_note_id);

    // The invoice: its total as issued, 10.00 credited, paid, nothing due.
    const after = await api.get(invoice.invoice_id);
    expect(after).toMatchObject({
      total_amount: "30.00",
      credited_amount: "10.00",
      paid_amount: "20.00",
      amount_due: "0.00",
      status: "paid",
      credit_notes: [
        { credit_note_id: noteId, credit_note_number: "CN-0001", total_amount: "10.00" },
      ],
    });
    expect(await api.status(invoice.invoice_id)).toMatchObject({ status: "paid" });

    // Its detail, its PDF (the stored bytes, hashed as the detail says), in the list.
    const detail = await api.read(`/api/credit-notes/${noteId}`);
    expect(detail.body).toEqual(created.body);
    const pdf = await api.bytes(`/api/credit-notes/${noteId}/pdf`);
    expect(createHash("sha256").update(pdf).digest("hex")).toBe(detail.body.pdf_sha256);
    const text = await pdfText(api, `/api/credit-notes/${noteId}/pdf`);
    for (const expected of [
      "CREDIT NOTE",
      "CN-0001",
      String(invoice.invoice_number),
      "10.00",
      "Ten off for the late delivery",
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain("Pay with USDC on Base");
    expect((await api.notesOf(invoice.invoice_id)).map((n) => n.credit_note_id)).toEqual([noteId]);

    // The event on the log, with the invoice's money after it.
    const events = await stack.db
      .selectFrom("app.payment_events")
      .select(["type", "payload"])
      .where("invoice_id", "=", invoice.invoice_id)
      .where("type", "=", "credit_note.created")
      .execute();
    expect(events).toHaveLength(1);
    expect(JSON.parse(String(events[0]?.payload))).toMatchObject({
      type: "credit_note.created",
      credit_note_id: noteId,
      credit_note_number: "CN-0001",
      amount: "10.00",
      status: "paid",
      total_amount: "30.00",
      credited_amount: "10.00",
      paid_amount: "20.00",
      amount_due: "0.00",
    });

    // The vendor's email carries the stored PDF.
    const email = await stack.waitForEmail((e) =>
      e.subject.startsWith(`Credit note CN-0001 from ${api.name}:`),
    );
    expect(email.attachments.map((a) => [a.filename, a.sha256])).toEqual([
      ["CN-0001.pdf", detail.body.pdf_sha256],
    ]);
    expect(email.text).toContain("Nothing more is due");

    // Numbered per merchant: the next is CN-0002, and the invoice is now credited in full.
    const rest = await answer(
      await api.credit(invoice.invoice_id, { full: true, reason: "Cancelled" }),
    );
    expect(rest.status).toBe(201);
    expect(rest.body).toMatchObject({
      credit_note_number: "CN-0002",
      total_amount: "20.00",
      full: true,
    });
    // Credited to 0 with 20.00 received: the 20.00 is excess, the payer's to get back.
    expect(await api.get(invoice.invoice_id)).toMatchObject({
      status: "excess",
      credited_amount: "30.00",
      amount_due: "0.00",
    });
  });

  test("credited below what arrived: excess, and the rest is refundable through the refunds", async () => {
    const api = await asMerchant();
    const invoice = await api.create(priced("50.00"));
    await pay(api, invoice.invoice_id, invoice.deposit_address, 50_000_000n, "50.00");
    // Paid: swept into the managed wallet, all of it revenue then.
    await api.swept(invoice.invoice_id);
    const created = await answer(
      await api.credit(invoice.invoice_id, {
        lines: [{ description: "Returned item", quantity: 2, unit_price: "7.50" }],
        reason: "Two items returned",
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(await api.get(invoice.invoice_id)).toMatchObject({
      status: "excess",
      credited_amount: "15.00",
      amount_due: "0.00",
    });
    // The 15.00 credited goes back to the payer out of the managed wallet, as it moves on chain.
    const to = freshAddress();
    const refund = await answer(await api.refund(invoice.invoice_id, { amount: "15.00", to }));
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    await api.refundIs(invoice.invoice_id, String(refund.body.refund_id), "confirmed");
    expect(await chain.usdcBalance(to)).toBe(15_000_000n);
  });

  test("an unpaid invoice credited in full is void; its amount due and the status endpoint say so", async () => {
    const api = await asMerchant();
    const invoice = await api.create(priced("12.00"));
    const created = await answer(
      await api.credit(invoice.invoice_id, { full: true, reason: "Order cancelled" }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ credit_note_number: "CN-0001", total_amount: "12.00" });
    // The lines mirror the invoice's own.
    expect((created.body.line_items as Json[]).map((l) => [l.description, l.line_total])).toEqual([
      ["Work", "12.00"],
    ]);
    expect(await api.get(invoice.invoice_id)).toMatchObject({ status: "void", amount_due: "0.00" });
    expect(await api.status(invoice.invoice_id)).toEqual({ status: "void" });
  });

  test("every way to pay asks for what remains after a credit note: the page, x402", async () => {
    const api = await asMerchant();
    const invoice = await api.create(priced("12.00"));
    const created = await answer(
      await api.credit(invoice.invoice_id, {
        lines: [{ description: "Discount", quantity: 1, unit_price: "2.00" }],
        reason: "Agreed discount",
      }),
    );
    expect(created.status).toBe(201);
    expect(await api.get(invoice.invoice_id)).toMatchObject({
      status: "sent",
      credited_amount: "2.00",
      amount_due: "10.00",
    });
    const page = await (await fetch(`${stack.api.url}/i/${invoice.slug}`)).text();
    expect(page).toContain("Now asked for (USDC)");
    expect(page).toContain('data-total-units="10000000"');
    const x402 = await stack.request(`/api/x402/${invoice.slug}`);
    expect(x402.status).toBe(402);
    const required = JSON.parse(
      Buffer.from(x402.headers.get("payment-required") ?? "", "base64").toString("utf8"),
    ) as { accepts: { amount: string }[] };
    expect(required.accepts.map((a) => a.amount)).toEqual(["10000000"]);
  });

  test("voiding a sent invoice issues a full credit note, attached to the void notice", async () => {
    const api = await asMerchant();
    const invoice = await api.create(priced("8.00"));
    const voided = await answer(await api.void(invoice.invoice_id));
    expect(voided.status).toBe(200);
    expect(await api.notesOf(invoice.invoice_id)).toMatchObject([
      {
        credit_note_number: "CN-0001",
        total_amount: "8.00",
        full: true,
        reason: `Invoice ${invoice.invoice_number} voided`,
      },
    ]);
    const email = await stack.waitForEmail(
      (e) =>
        e.subject.startsWith(`${invoice.invoice_number} from ${api.name}`) &&
        e.subject.includes("is void"),
    );
    expect(email.attachments.map((a) => a.filename)).toEqual(["CN-0001.pdf"]);
    // A draft never issued is voided without one.
    const draft = await api.create({ ...priced("8.00"), send_now: false });
    await api.void(draft.invoice_id);
    expect(await api.notesOf(draft.invoice_id)).toEqual([]);
  });

  test("a taxed invoice's credit note is taxed like it: the same rates, its own breakdown", async () => {
    const api = await asMerchant();
    const invoice = await api.create({
      merchant_tax_id: "DE123456789",
      vendor_tax_id: "FR12345678901",
      merchant_country: "DE",
      vendor_country: "FR",
      line_items: [
        { description: "Design work", quantity: 2, unit_price: "75.00", tax_rate: "19" },
        { description: "Books", quantity: 1, unit_price: "20.00", tax_rate: "7" },
      ],
    });
    expect(invoice.total_amount).toBe("199.90"); // 150 + 28.50 + 20 + 1.40
    const wrongRate = await answer(
      await api.credit(invoice.invoice_id, {
        lines: [{ description: "Design work", quantity: 1, unit_price: "75.00", tax_rate: "16" }],
        reason: "One hour less",
      }),
    );
    expect(wrongRate.status).toBe(400);
    expect((wrongRate.body.error as Json).fields).toMatchObject([
      { path: "lines[0].tax_rate", code: "tax_not_on_invoice" },
    ]);
    const created = await answer(
      await api.credit(invoice.invoice_id, {
        lines: [{ description: "Design work", quantity: 1, unit_price: "75.00", tax_rate: "19" }],
        reason: "One hour less",
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      subtotal_amount: "75.00",
      tax_amount: "14.25",
      total_amount: "89.25",
      tax_breakdown: [{ category: "S", rate: "19", taxable_amount: "75.00", tax_amount: "14.25" }],
    });
    // The rest in full: what remains of each rate.
    const rest = await answer(
      await api.credit(invoice.invoice_id, { full: true, reason: "Cancelled" }),
    );
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    expect(rest.body).toMatchObject({
      total_amount: "110.65",
      tax_breakdown: [
        { category: "S", rate: "19", taxable_amount: "75.00", tax_amount: "14.25" },
        { category: "S", rate: "7", taxable_amount: "20.00", tax_amount: "1.40" },
      ],
    });
    expect(await api.get(invoice.invoice_id)).toMatchObject({
      status: "void",
      credited_amount: "199.90",
    });
  });

  test("bad requests are field-level 400s and store nothing", async () => {
    const api = await asMerchant();
    const invoice = await api.create(priced("10.00"));
    const draft = await api.create({ ...priced("10.00"), send_now: false });
    const voided = await api.create(priced("10.00"));
    await api.void(voided.invoice_id);
    const before = await noteCount();
    const cases: [string, string, Json, string, string][] = [
      [
        "above what is due",
        invoice.invoice_id,
        { lines: [{ description: "x", quantity: 1, unit_price: "10.01" }], reason: "r" },
        "lines",
        "credit_exceeds_creditable",
      ],
      [
        "both lines and full",
        invoice.invoice_id,
        { lines: [{ description: "x", quantity: 1, unit_price: "1.00" }], full: true, reason: "r" },
        "full",
        "lines_or_full",
      ],
      ["neither", invoice.invoice_id, { reason: "r" }, "lines", ""],
      ["no reason", invoice.invoice_id, { full: true }, "reason", "required"],
      [
        "tax on an untaxed invoice",
        invoice.invoice_id,
        {
          lines: [{ description: "x", quantity: 1, unit_price: "1.00", tax_rate: "19" }],
          reason: "r",
        },
        "lines[0].tax_category",
        "invoice_untaxed",
      ],
      [
        "an unknown category",
        invoice.invoice_id,
        {
          lines: [{ description: "x", quantity: 1, unit_price: "1.00", tax_category: "Q" }],
          reason: "r",
        },
        "lines[0].tax_category",
        "",
      ],
      ["a draft", draft.invoice_id, { full: true, reason: "r" }, "", "invoice_draft"],
      ["a void invoice", voided.invoice_id, { full: true, reason: "r" }, "", "invoice_void"],
    ];
    for (const [name, id, body, path, code] of cases) {
      const response = await answer(await api.credit(id, body));
      expect(response.status, name).toBe(400);
      const errors = (response.body.error as { fields: { path: string; code: string }[] }).fields;
      expect(
        errors.map((e) => e.path),
        name,
      ).toContain(path);
      if (code)
        expect(
          errors.map((e) => e.code),
          name,
        ).toContain(code);
    }
    expect(await noteCount()).toBe(before);
    expect((await api.get(invoice.invoice_id)).amount_due).toBe("10.00");
    // Another merchant's invoice is a 404, as an unknown one, and changes nothing.
    const other = await (await asMerchant()).create(priced("10.00"));
    expect((await api.credit(other.invoice_id, { full: true, reason: "r" })).status).toBe(404);
    expect(
      (await api.credit("00000000-0000-4000-8000-000000000000", { full: true, reason: "r" }))
        .status,
    ).toBe(404);
    expect(await noteCount()).toBe(before);
  });

  test("concurrent credit notes of one merchant are numbered without gaps; a retried key answers the first", async () => {
    const api = await asMerchant();
    const invoices = await Promise.all([1, 2, 3, 4, 5].map(() => api.create(priced("5.00"))));
    const created = await Promise.all(
      invoices.map((invoice) =>
        api.credit(invoice.invoice_id, { full: true, reason: "Cancelled" }).then(answer),
      ),
    );
    expect(created.map((c) => c.status)).toEqual([201, 201, 201, 201, 201]);
    expect(created.map((c) => c.body.credit_note_number).sort()).toEqual([
      "CN-0001",
      "CN-0002",
      "CN-0003",
      "CN-0004",
      "CN-0005",
    ]);
    const invoice = await api.create(priced("9.00"));
    const body = { lines: [{ description: "x", quantity: 1, unit_price: "1.00" }], reason: "r" };
    const first = await answer(
      await api.credit(invoice.invoice_id, body, { "idempotency-key": "cn-1" }),
    );
    const again = await answer(
      await api.credit(invoice.invoice_id, body, { "idempotency-key": "cn-1" }),
    );
    expect(again.body.credit_note_id).toBe(first.body.credit_note_id);
    expect((await api.get(invoice.invoice_id)).credited_amount).toBe("1.00");
    expect(
      codeOf(
        (
          await answer(
            await api.credit(
              invoice.invoice_id,
              { ...body, reason: "other" },
              { "idempotency-key": "cn-1" },
            ),
          )
        ).body,
      ),
    ).toBe("idempotency_key_reused");
  });

  test("credit notes are append-only in the database, and credited_amount is only their sum", async () => {
    const api = await asMerchant();
    const invoice = await api.create(priced("4.00"));
    const created = await answer(
      await api.credit(invoice.invoice_id, { full: true, reason: "Cancelled" }),
    );
    await expect(
      stack.db
        .updateTable("app.credit_notes")
        .set({ reason: "changed" })
        .where("id", "=", String(created.body.credit_note_id))
        .execute(),
    ).rejects.toThrow(/append-only/);
    await expect(
      stack.db
        .updateTable("app.invoices")
        .set({ credited_amount: 1n } as never)
        .where("id", "=", invoice.invoice_id)
        .execute(),
    ).rejects.toThrow(/append-only/);
  });
});
