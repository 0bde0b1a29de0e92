import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * The attack: lower what another merchant's invoice asks for (a credit note is money the
 * merchant will not receive), or read its credit notes, by guessing or learning an id. A
 * credit note is authorised through its invoice (app/creditNotes/creditNoteDetail.ts), never by
 * its id: another merchant's key gets a 404 as for an unknown id, no key a 401, nothing is
 * written, and the list shows only the key's own.
 */
describe("another merchant's credit notes", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("cannot be issued, read, downloaded or listed with another key, or without one", async () => {
    const [acme, mallory] = [await claimedMerchant(stack.db), await claimedMerchant(stack.db)];
    const created = await answer(
      await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest({ merchant_email: acme.email }),
        headers: bearer(acme.key),
      }),
    );
    const invoiceId = String(created.body.invoice_id);
    const own = await answer(
      await stack.request(`/api/invoices/${invoiceId}/credit-notes`, {
        method: "POST",
        json: { lines: [{ description: "x", quantity: 1, unit_price: "1.00" }], reason: "r" },
        headers: bearer(acme.key),
      }),
    );
    expect(own.status).toBe(201);
    const noteId = String(own.body.credit_note_id);

    for (const headers of [bearer(mallory.key), {}]) {
      const expected = "authorization" in headers ? 404 : 401;
      const issued = await stack.request(`/api/invoices/${invoiceId}/credit-notes`, {
        method: "POST",
        json: { full: true, reason: "mine now" },
        headers,
      });
      expect(issued.status).toBe(expected);
      for (const path of [
        `/api/credit-notes/${noteId}`,
        `/api/credit-notes/${noteId}/pdf`,
        `/api/credit-notes/${noteId}/einvoice?format=cii`,
      ])
        expect((await stack.request(path, { headers })).status, path).toBe(expected);
    }
    const listed = await answer(
      await stack.request(`/api/credit-notes?invoice_id=${invoiceId}`, {
        headers: bearer(mallory.key),
      }),
    );
    expect([listed.status, listed.body.credit_notes]).toEqual([200, []]);
    // Nothing written: the one credit note of the owner, the invoice still owing the rest.
    const invoice = await answer(
      await stack.request(`/api/invoices/${invoiceId}`, { headers: bearer(acme.key) }),
    );
    expect(invoice.body).toMatchObject({ credited_amount: "1.00" });
    expect(invoice.body.credit_notes).toHaveLength(1);
  });
});
