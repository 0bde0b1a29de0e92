import { parse } from "csv-parse/sync";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { insertDashboardSession } from "../../db/queries/dashboardSessions.ts";
import { hashSecretToken } from "../../domain/apiKeys.ts";
import { newDashboardSessionToken } from "../../domain/dashboardSession.ts";
import { usdcToBaseUnits } from "../../domain/money.ts";
import {
  answer,
  bearer,
  claimedMerchant,
  type Merchant,
  registerWallet,
} from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { linkRequest } from "../links/fixtures.ts";
import { walkList } from "../lists/pages.ts";
import {
  freshAddress,
  invoiceApi,
  type Json,
  priced,
  type RefundBody,
  until,
} from "../refunds/helpers.ts";

type Row = Record<string, string>;

/**
 * A USDC decimal as the API, the exports and the dashboard write it ("1,234.50 USDC" included);
 * a missing figure is -1 base unit, so a sum that lacks it cannot match.
 */
const units = (text: string | undefined): bigint =>
  text === undefined
    ? -1n
    : usdcToBaseUnits(
        text
          .replace(/,/g, "")
          .replace(/ USDC$/, "")
          .trim(),
      );
const sum = (values: Iterable<bigint>) => [...values].reduce((a, b) => a + b, 0n);

/**
 * The books balance: one merchant with a paid, a partial, an excess (swept, its excess refunded
 * to an address), a void unpaid, a void paid anyway (refunded by claim link) and an overdue
 * invoice, and an overpaid, swept and refunded payment link. Every surface that shows money
 * (the API's lists, details and status, both CSV exports, the dashboard overview) tells the
 * same totals, a void invoice owes nothing anywhere, and on chain every base unit the payers
 * sent sits on a deposit address, on the merchant's wallet, or with a refund's recipient.
 */
describe("the books balance", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let merchant: Merchant;
  let api: ReturnType<typeof invoiceApi>;
  const wallet = freshAddress();

  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ worker: true, indexer: true });
    merchant = await claimedMerchant(stack.db);
    expect((await registerWallet(stack, merchant, wallet)).status).toBe(201);
    api = invoiceApi(stack, bearer(merchant.key));
  });
  afterAll(async () => {
    if (process.env.DEBUG_STACK) console.log(stack?.worker?.output());
    await stack?.stop();
    await chain.revert();
  });

  const get = async (path: string) => {
    const response = await stack.request(path, { headers: bearer(merchant.key) });
    expect(response.status, path).toBe(200);
    return response;
  };
  const csv = async (path: string) =>
    parse(await (await get(path)).text(), { bom: true, columns: true }) as Row[];

  test("every surface tells the same totals, the void invoice owes nothing, the chain agrees", async () => {
    const byo = { wallet_type: "byo", wallet_address: wallet, merchant_email: merchant.email };
    const [paid, partial, excess, voidUnpaid, voidPaid, overdue] = await Promise.all([
      api.create({ ...priced("2.00"), ...byo }),
      api.create({ ...priced("3.00"), ...byo }),
      api.create({ ...priced("2.00"), ...byo }),
      api.create({ ...priced("149.975"), ...byo }),
      api.create({ ...priced("1.00"), ...byo }),
      api.create({ ...priced("4.25"), ...byo, issue_date: "2020-01-01", due_date: "2020-01-31" }),
    ]);
    const createdLink = await answer(
      await stack.request("/api/links", {
        method: "POST",
        json: linkRequest({ ...byo, amount: "1.00" }),
        headers: bearer(merchant.key),
      }),
    );
    expect(createdLink.status).toBe(201);
    const link = createdLink.body as Json & { slug: string; deposit_address: Address };
    for (const invoice of [voidUnpaid, voidPaid]) {
      const voided = await stack.request(`/api/invoices/${invoice.invoice_id}/void`, {
        method: "POST",
        headers: bearer(merchant.key),
      });
      expect(voided.status).toBe(200);
    }

    // What the payers send: each amount exactly, in base units.
    const payments: [Address, bigint][] = [
      [paid.deposit_address, 2_000_000n],
      [partial.deposit_address, 1_000_000n],
      [excess.deposit_address, 2_500_000n],
      [voidPaid.deposit_address, 1_000_000n],
      [link.deposit_address, 1_200_000n],
    ];
    for (const [i, [to, value]] of payments.entries())
      await chain.payUsdc(devAccount(2 + i), to, value);
    const sent = sum(payments.map(([, value]) => value));

    // Swept: the paid and the excess invoice (the total), the link (its amount).
    await Promise.all([api.swept(paid.invoice_id), api.swept(excess.invoice_id)]);
    await until("the link swept", async () => {
      const body = (await (await get(`/api/links/${link.slug}`)).json()) as Json & {
        sweeps: { status: string; indexed: boolean }[];
      };
      return body.sweeps.some((s) => s.status === "confirmed" && s.indexed) && body;
    });
    await until("the partial and void payments counted", async () => {
      const [p, v] = await Promise.all([api.get(partial.invoice_id), api.get(voidPaid.invoice_id)]);
      return p.paid_amount === "1.00" && v.paid_amount === "1.00";
    });

    // Refunds: the excess to an address, the link's excess to an address (its merchant's key),
    // the void invoice's payment by claim link, named by the payer.
    const excessTo = freshAddress();
    const linkTo = freshAddress();
    const claimTo = freshAddress();
    const excessRefund = (await answer(await api.refund(excess.invoice_id, { to: excessTo })))
      .body as RefundBody;
    expect(excessRefund.amount).toBe("0.50");
    const linkRefund = await answer(
      await stack.request(`/api/links/${link.slug}/refunds`, {
        method: "POST",
        json: { to: linkTo },
        headers: bearer(merchant.key),
      }),
    );
    expect(linkRefund.status).toBe(201);
    expect(linkRefund.body.amount).toBe("0.20");
    const claimRefund = (await answer(await api.refund(voidPaid.invoice_id, {})))
      .body as RefundBody;
    const claimed = await fetch(String(claimRefund.claim_url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ address: claimTo, confirm: "yes" }).toString(),
      redirect: "manual",
    });
    expect(claimed.status).toBe(200);
    await api.refundIs(excess.invoice_id, excessRefund.refund_id, "confirmed");
    await api.refundIs(voidPaid.invoice_id, claimRefund.refund_id, "confirmed");
    await until("the link refund confirmed", async () => {
      const refund = await stack.db
        .selectFrom("app.refunds")
        .select("status")
        .where("id", "=", String(linkRefund.body.refund_id))
        .executeTakeFirst();
      if (refund?.status === "failed") throw new Error("the link refund failed");
      return refund?.status === "confirmed";
    });
    // A credit note takes 0.50 off the partial invoice: it now owes 1.50 (3.00 - 0.50 - 1.00).
    const credited = await answer(
      await stack.request(`/api/invoices/${partial.invoice_id}/credit-notes`, {
        method: "POST",
        json: {
          lines: [{ description: "Goodwill", quantity: 1, unit_price: "0.50" }],
          reason: "Late delivery",
        },
        headers: bearer(merchant.key),
      }),
    );
    expect(credited.status, JSON.stringify(credited.body)).toBe(201);
    // From here on every surface is checked softly: a divergence is reported with all the
    // others, not only the first.
    const check = expect.soft;
    const linkDetail = (await (await get(`/api/links/${link.slug}`)).json()) as Json & {
      refunds?: RefundBody[];
    };
    check(linkDetail).toMatchObject({ amount_received: "1.20", refunded_amount: "0.20" });
    check(linkDetail.refunds?.map((r) => r.status)).toEqual(["confirmed"]);

    // ---- The API's lists ----
    const invoices = (await walkList(stack, merchant.key, "/api/invoices?limit=2")) as Row[];
    const links = (await walkList(stack, merchant.key, "/api/links?limit=2")) as Row[];
    const listed = (await walkList(stack, merchant.key, "/api/payments?limit=2")) as Row[];
    check(invoices).toHaveLength(6);
    check(links).toHaveLength(1);
    check(listed).toHaveLength(5);
    const byId = new Map(invoices.map((i) => [i.invoice_id, i]));
    const list = {
      received: sum(invoices.map((i) => units(i.paid_amount))),
      due: sum(invoices.map((i) => units(i.amount_due))),
      refunded: sum(invoices.map((i) => units(i.refunded_amount))),
      linkReceived: sum(links.map((l) => units(l.amount_received))),
      linkRefunded: sum(links.map((l) => units(l.refunded_amount))),
    };
    check(list).toEqual({
      received: 6_500_000n,
      // The partial's 1.50 (after its credit note) and the overdue's 4.25: the void invoices
      // owe nothing.
      due: 5_750_000n,
      refunded: 1_500_000n,
      linkReceived: 1_200_000n,
      linkRefunded: 200_000n,
    });
    check(byId.get(excess.invoice_id)).toMatchObject({
      status: "excess",
      paid_amount: "2.50",
      refunded_amount: "0.50",
    });
    check(byId.get(voidPaid.invoice_id)).toMatchObject({
      status: "void",
      paid_amount: "1.00",
      amount_due: "0.00",
      refunded_amount: "1.00",
    });
    check(sum(listed.map((p) => units(p.amount)))).toBe(sent);

    check(byId.get(partial.invoice_id)).toMatchObject({ status: "partial", amount_due: "1.50" });
    check(await api.get(partial.invoice_id)).toMatchObject({
      total_amount: "3.00",
      credited_amount: "0.50",
      amount_due: "1.50",
    });

    // ---- The void invoice owes nothing: detail, list, export, status ----
    check(byId.get(voidUnpaid.invoice_id)).toMatchObject({ status: "void", amount_due: "0.00" });
    const voidDetail = await api.get(voidUnpaid.invoice_id);
    check(voidDetail).toMatchObject({ total_amount: "149.975", amount_due: "0.00" });
    check(await api.status(voidUnpaid.invoice_id)).toEqual({ status: "void" });

    // ---- The invoices export: one row per line, the invoice's figures on each ----
    const invoiceRows = await csv("/api/exports/invoices.csv");
    const exported = new Map(invoiceRows.map((r) => [r.invoice_id, r]));
    check(exported.size).toBe(6);
    check(exported.get(voidUnpaid.invoice_id)).toMatchObject({
      status: "void",
      invoice_total: "149.975",
      amount_due: "0.00",
    });
    for (const [id, row] of exported)
      check(row, `export row of ${id}`).toMatchObject({
        paid_amount: byId.get(id)?.paid_amount,
        amount_due: byId.get(id)?.amount_due,
        refunded_amount: byId.get(id)?.refunded_amount,
        status: byId.get(id)?.status,
      });
    const exportedInvoices = [...exported.values()];
    check(sum(exportedInvoices.map((r) => units(r.paid_amount)))).toBe(list.received);
    check(sum(exportedInvoices.map((r) => units(r.amount_due)))).toBe(list.due);
    check(sum(exportedInvoices.map((r) => units(r.refunded_amount)))).toBe(list.refunded);

    // ---- The payments export: each payment, and each confirmed refund with its transaction ----
    const ledger = await csv("/api/exports/payments.csv");
    const paymentRows = ledger.filter((r) => r.entry === "payment");
    const refundRows = ledger.filter((r) => r.entry === "refund");
    check(paymentRows).toHaveLength(5);
    check(refundRows).toHaveLength(3);
    check(sum(paymentRows.map((r) => units(r.amount)))).toBe(list.received + list.linkReceived);
    check(sum(refundRows.map((r) => units(r.amount)))).toBe(list.refunded + list.linkRefunded);
    check(new Set(paymentRows.map((r) => r.payment_id))).toEqual(
      new Set(listed.map((p) => p.payment_id)),
    );
    const refundsById = new Map(
      [
        ...(await api.get(excess.invoice_id)).refunds,
        ...(await api.get(voidPaid.invoice_id)).refunds,
        ...(linkDetail.refunds ?? []),
      ].map((r) => [r.refund_id, r]),
    );
    for (const row of refundRows) {
      const refund = refundsById.get(row.payment_id ?? "");
      check(refund, `refund row ${row.payment_id}`).toBeDefined();
      check(row).toMatchObject({ tx_hash: refund?.tx_hash, amount: refund?.amount, payer: "" });
      check(row.refund_to?.toLowerCase()).toBe(String(refund?.to).toLowerCase());
    }
    check(refundRows.find((r) => r.link_slug === link.slug)?.kind).toBe("link");
    // Credit notes are documents in the ledger, not money: the two voids' (each in full) and
    // the partial's, their sum the invoices' credited amounts.
    const creditRows = ledger.filter((r) => r.entry === "credit_note");
    check(creditRows.map((r) => [r.invoice_id, r.amount]).sort()).toEqual(
      [
        [voidUnpaid.invoice_id, "149.975"],
        [voidPaid.invoice_id, "1.00"],
        [partial.invoice_id, "0.50"],
      ].sort(),
    );
    check(
      creditRows.every((r) => /^CN-\d{4}$/.test(r.credit_note_number ?? "") && !r.tx_hash),
    ).toBe(true);
    check(sum(creditRows.map((r) => units(r.amount)))).toBe(
      sum(exportedInvoices.map((r) => units(r.credited_amount))),
    );
    check(ledger).toHaveLength(paymentRows.length + refundRows.length + creditRows.length);

    // ---- The aged receivables: what the open invoices owe, credit notes taken off ----
    const receivables = (await (await get("/api/reports/receivables")).json()) as Json;
    check(units(String(receivables.total))).toBe(list.due);

    // ---- The dashboard overview, signed in ----
    const token = newDashboardSessionToken();
    await insertDashboardSession(stack.db, {
      merchantId: merchant.merchantId,
      tokenHash: hashSecretToken(token),
      absoluteMinutes: 60,
    });
    const html = await (
      await stack.request("/dashboard", { headers: { cookie: `remit_dashboard=${token}` } })
    ).text();
    const figure = (name: string) => {
      const match = new RegExp(`data-figure="${name}"[^>]*>([^<]*)<`).exec(html);
      check(match, `the ${name} figure`).not.toBeNull();
      return units(match?.[1]);
    };
    // This month's figures are the export's over this month (payments by block time, refunds
    // by confirmation).
    const monthStart = `${new Date().toISOString().slice(0, 7)}-01`;
    const month = await csv(`/api/exports/payments.csv?from=${monthStart}`);
    const monthIn = sum(month.filter((r) => r.entry === "payment").map((r) => units(r.amount)));
    const monthOut = sum(month.filter((r) => r.entry === "refund").map((r) => units(r.amount)));
    check(monthOut).toBe(list.refunded + list.linkRefunded);
    check(figure("received")).toBe(monthIn);
    check(figure("refunded")).toBe(monthOut);
    check(figure("net")).toBe(monthIn - monthOut);
    check(figure("outstanding")).toBe(list.due);
    const overdueRows = (await walkList(
      stack,
      merchant.key,
      "/api/invoices?status=overdue",
    )) as Row[];
    check(overdueRows.map((r) => r.invoice_id)).toEqual([overdue.invoice_id]);
    check(figure("overdue")).toBe(sum(overdueRows.map((r) => units(r.amount_due))));

    // ---- On chain, exactly ----
    const deposits = [paid, partial, excess, voidUnpaid, voidPaid, overdue]
      .map((i) => i.deposit_address)
      .concat(link.deposit_address);
    const onDeposits = sum(await Promise.all(deposits.map((a) => chain.usdcBalance(a))));
    const inWallet = await chain.usdcBalance(wallet);
    const refundedOut = sum(
      await Promise.all([excessTo, linkTo, claimTo].map((a) => chain.usdcBalance(a))),
    );
    expect(onDeposits + inWallet + refundedOut).toBe(sent);
    // And the books say the same: what refunds paid is what left, the rest is held or swept.
    expect(refundedOut).toBe(list.refunded + list.linkRefunded);
    expect(onDeposits + inWallet).toBe(list.received + list.linkReceived - refundedOut);
    expect(inWallet).toBe(2_000_000n + 2_000_000n + 1_000_000n);
  });

  test("payouts: the managed wallet's books are its balance on chain; a payout and a refund out of it add up", async () => {
    const managed = { wallet_type: "managed", merchant_email: merchant.email };
    const [first, second] = await Promise.all([
      api.create({ ...priced("5.00"), ...managed }),
      api.create({ ...priced("3.00"), ...managed }),
    ]);
    await chain.payUsdc(devAccount(8), first.deposit_address, 5_000_000n);
    await chain.payUsdc(devAccount(9), second.deposit_address, 3_000_000n);
    const managedWallet = (await api.swept(first.invoice_id)).wallet_address;
    await api.swept(second.invoice_id);
    const books = async () =>
      (await (await get("/api/merchant/payouts")).json()) as {
        managed_wallet: { balance: string; reserved: string; available: string };
        payouts: { payout_id: string; status: string }[];
      };
    expect((await books()).managed_wallet).toMatchObject({ balance: "8.00", available: "8.00" });
    expect(await chain.usdcBalance(managedWallet)).toBe(8_000_000n);

    // A refund of revenue out of the managed wallet, and a payout to the payout wallet.
    const refundTo = freshAddress();
    const refund = (
      await answer(await api.refund(first.invoice_id, { amount: "1.50", to: refundTo }))
    ).body as RefundBody;
    const before = await chain.usdcBalance(wallet);
    const payout = await answer(
      await stack.request("/api/merchant/payouts", {
        method: "POST",
        json: { amount: "6.00", to: wallet },
        headers: bearer(merchant.key),
      }),
    );
    expect(payout.status).toBe(201);
    // Everything else is reserved or gone: nothing more may leave.
    expect((await books()).managed_wallet.available).toBe("0.50");
    await api.refundIs(first.invoice_id, refund.refund_id, "confirmed");
    await until("the payout confirmed", async () =>
      (await books()).payouts.some((p) => p.status === "confirmed"),
    );
    expect((await books()).managed_wallet).toMatchObject({
      balance: "0.50",
      reserved: "0.00",
      available: "0.50",
    });
    // On chain, exactly: the books' balance is the wallet's; what left is what was asked.
    expect(await chain.usdcBalance(managedWallet)).toBe(500_000n);
    expect(await chain.usdcBalance(refundTo)).toBe(1_500_000n);
    expect((await chain.usdcBalance(wallet)) - before).toBe(6_000_000n);
    // The invoices' lists count the refund as refunded; a payout is the merchant's own money
    // moving, not a refund: the invoice's figures are unchanged by it.
    expect((await api.get(first.invoice_id)).refunded_amount).toBe("1.50");
    expect((await api.get(second.invoice_id)).refunded_amount).toBe("0.00");
  }, 300_000);
});
