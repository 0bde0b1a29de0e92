import { randomUUID } from "node:crypto";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { csrfOf, postForm, signInByFetch } from "../dashboard/dashboard.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

const VERIFY_LINK =
  /https?:\/\/[^\s"<]+\/dashboard\/notification-email\/([1-9A-HJ-NP-Za-km-z]{43})/;

type AuditEntry = {
  action: string;
  actor: string;
  target: string;
  details: Record<string, { from: string | null; to: string | null }> | null;
};

/**
 * The attack: with a stolen dashboard session, change "Send payment notices to" to your own
 * address. Nothing was audited, nobody was told, and every payment notice went to the thief
 * from then on. Now the change is audited old → new, the account's own address is emailed
 * about it, and notices go to a new address only once the link emailed to it is followed.
 */
describe("redirecting payment notices through the dashboard's settings", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ worker: true, indexer: true, env: { SWEEP: "off" } });
  });
  afterAll(async () => {
    await stack?.stop();
    await chain.revert();
  });

  /** A 150.00 USDC invoice of the merchant, paid in full; answers its number. */
  const paidInvoice = async (merchant: Merchant): Promise<string> => {
    const created = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({
        merchant_email: merchant.email,
        line_items: [{ description: "Work", quantity: 2, unit_price: "75.00" }],
      }),
      headers: bearer(merchant.key),
    });
    expect(created.status).toBe(201);
    const invoice = (await created.json()) as {
      invoice_id: string;
      deposit_address: Address;
      invoice_number: string;
    };
    await chain.payUsdc(devAccount(1), invoice.deposit_address, 150_000_000n);
    return invoice.invoice_number;
  };
  /** Who got the payment notice of the invoice `number`. */
  const noticeRecipient = async (number: string): Promise<string[]> => {
    const notice = await waitFor(
      `the payment notice of ${number}`,
      async () =>
        (await stack.outbox()).find(
          (e) => e.subject.includes(number) && e.subject.includes("is paid in full"),
        ),
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
    return notice.to;
  };
  const auditOf = async (merchant: Merchant): Promise<AuditEntry[]> =>
    (
      (await (await stack.request("/api/audit", { headers: bearer(merchant.key) })).json()) as {
        entries: AuditEntry[];
      }
    ).entries;

  test("the change is audited, the account told, and notices move only once the new address follows its link", async () => {
    const merchant = await claimedMerchant(stack.db);
    const thief = `thief-${randomUUID()}@example.com`;
    const { cookie } = await signInByFetch(stack, merchant.email);
    const saved = await postForm(
      stack,
      "/dashboard/settings",
      {
        _csrf: await csrfOf(stack, cookie, "/dashboard/settings"),
        default_name: "Acme Design Studio",
        default_address: "",
        notification_email: thief,
        underpayment_tolerance: "0.00",
      },
      { cookie },
    );
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe("/dashboard/settings?notice=saved_pending");

    // Audited, old → new (null: the account's own email).
    const entry = (await auditOf(merchant)).find((e) => e.action === "settings.updated");
    expect(entry).toMatchObject({
      actor: "dashboard",
      details: {
        notification_email: { from: null, to: thief },
        default_name: { from: null, to: "Acme Design Studio" },
      },
    });

    // The account's own address hears of it.
    const told = await stack.waitForEmail(
      (e) => e.to.includes(merchant.email) && /settings were changed/.test(e.subject),
    );
    expect(told.text).toContain(thief);
    expect(told.text).toContain("only once the link we sent there is followed");

    // Until the link is followed, payment notices keep going to the account's address.
    expect(await noticeRecipient(await paidInvoice(merchant))).toContain(merchant.email);

    const verification = await stack.waitForEmail(
      (e) => e.to.includes(thief) && VERIFY_LINK.test(e.text ?? ""),
    );
    const path = new URL(VERIFY_LINK.exec(verification.text ?? "")?.[0] ?? "").pathname;
    // The link's page only asks (a mail scanner's GET changes nothing).
    expect((await stack.request(path)).status).toBe(200);
    expect(await noticeRecipient(await paidInvoice(merchant))).toContain(merchant.email);
    const confirmed = await stack.request(path, { method: "POST" });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain(thief);
    // Once: the link is spent.
    expect((await stack.request(path, { method: "POST" })).status).toBe(410);

    expect(await noticeRecipient(await paidInvoice(merchant))).toContain(thief);
    expect((await auditOf(merchant)).map((e) => e.action)).toContain(
      "settings.notification_email_verified",
    );
    // The token is stored as a hash only, and gone once used.
    const row = await stack.db
      .selectFrom("app.merchant_settings")
      .selectAll()
      .where("merchant_id", "=", merchant.merchantId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ notification_email: thief, pending_token_hash: null });
  });

  test("the link expires, and a newer change replaces it", async () => {
    const merchant = await claimedMerchant(stack.db);
    const { cookie } = await signInByFetch(stack, merchant.email);
    const change = async (notification_email: string) =>
      postForm(
        stack,
        "/dashboard/settings",
        {
          _csrf: await csrfOf(stack, cookie, "/dashboard/settings"),
          default_name: "",
          default_address: "",
          notification_email,
        },
        { cookie },
      );
    const first = `first-${randomUUID()}@example.com`;
    const second = `second-${randomUUID()}@example.com`;
    expect((await change(first)).status).toBe(303);
    const linkTo = async (address: string) => {
      const email = await stack.waitForEmail(
        (e) => e.to.includes(address) && VERIFY_LINK.test(e.text ?? ""),
      );
      return new URL(VERIFY_LINK.exec(email.text ?? "")?.[0] ?? "").pathname;
    };
    const firstLink = await linkTo(first);
    expect((await change(second)).status).toBe(303);
    const secondLink = await linkTo(second);
    expect((await stack.request(firstLink, { method: "POST" })).status).toBe(410);
    await stack.db
      .updateTable("app.merchant_settings")
      .set({ pending_expires_at: new Date(Date.now() - 1000) })
      .where("merchant_id", "=", merchant.merchantId)
      .execute();
    expect((await stack.request(secondLink)).status).toBe(410);
    expect((await stack.request(secondLink, { method: "POST" })).status).toBe(410);
    const settings = await stack.db
      .selectFrom("app.merchant_settings")
      .select("notification_email")
      .where("merchant_id", "=", merchant.merchantId)
      .executeTakeFirstOrThrow();
    expect(settings.notification_email).toBeNull();
  });

  test("PATCH /api/merchant/settings: audited old → new, and the account told", async () => {
    const merchant = await claimedMerchant(stack.db);
    const patched = await stack.request("/api/merchant/settings", {
      method: "PATCH",
      json: { underpayment_tolerance: "0.50" },
      headers: bearer(merchant.key),
    });
    expect(patched.status).toBe(200);
    const entry = (await auditOf(merchant)).find((e) => e.action === "settings.updated");
    expect(entry).toMatchObject({
      actor: "key",
      target: "underpayment_tolerance",
      details: { underpayment_tolerance: { from: "0.00", to: "0.50" } },
    });
    const told = await stack.waitForEmail(
      (e) => e.to.includes(merchant.email) && /settings were changed/.test(e.subject),
    );
    expect(told.text).toContain("0.00 → 0.50");
    expect(told.text).toContain('the API key "test"');
  });
});
