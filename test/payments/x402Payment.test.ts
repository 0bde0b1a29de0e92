import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { type Address, getAddress, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { resetLocalFeeds, setLocalFeedRound } from "../../chain/localFeeds.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { PRICE_FEEDS } from "../../domain/currencies.ts";
import { parseFeedAnswer } from "../../domain/rates.ts";
import { waitFor } from "../../internal/process.ts";
import { bearer, claimedMerchant } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import {
  type CreatedInvoice,
  createInvoiceOn,
  expectPaidWebhook,
  waitForInvoiceStatus,
} from "../helpers/serviceInvoice.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";

type Json = Record<string, unknown>;

/**
 * Software pays an invoice or a payment link with the official x402 clients (@x402/fetch
 * wrapping fetch, @x402/evm's exact scheme) and an account that holds USDC and no ETH: the first
 * request is answered 402 with what is due, the client signs and asks again, Remit's relayer
 * settles it, and the answer is 200 with PAYMENT-RESPONSE. The payment then counts like any other.
 */
describe("paying over x402 with @x402/fetch", () => {
  const chain = useChainForFile();
  const relayerKey = generatePrivateKey();
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    await chain.snapshot();
    await chain.client.setBalance({
      address: privateKeyToAccount(relayerKey).address,
      value: parseEther("1"),
    });
    receiver = await startWebhookReceiver();
    stack = await startStack({
      worker: true,
      indexer: true,
      env: { RELAYER_PRIVATE_KEY: relayerKey, WEBHOOK_RETRY_BASE_MS: "50" },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
    await chain.revert();
  });

  /** A fresh payer holding `usdc` base units and not one wei of ETH. */
  const newPayer = async (usdc: bigint) => {
    const account = privateKeyToAccount(generatePrivateKey());
    await chain.payUsdc(devAccount(1), account.address, usdc);
    expect(await chain.client.getBalance({ address: account.address })).toBe(0n);
    return account;
  };
  /** fetch wrapped by @x402/fetch for `payer`, capped at `cap`; every status it saw, in order. */
  const x402Fetch = (payer: ReturnType<typeof privateKeyToAccount>, cap = "$500") => {
    const statuses: number[] = [];
    const recorded: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    };
    const client = new x402Client()
      .register("eip155:8453", new ExactEvmScheme(payer))
      // The client refuses any payment over $1 unless told otherwise.
      .setSpendControls({ maxAmountPerPayment: cap });
    return { pay: wrapFetchWithPayment(recorded, client), statuses };
  };
  const settlementOf = (response: Response) =>
    decodePaymentResponseHeader(response.headers.get("PAYMENT-RESPONSE") ?? "");

  test("an invoice: 402, paid by the client, 200 with PAYMENT-RESPONSE; paid, emailed, webhooked; the payer spent no ETH", async () => {
    const invoice: CreatedInvoice & { x402_url?: string } = await createInvoiceOn(
      stack.api.url,
      receiver.url,
    );
    expect(invoice.x402_url).toBe(`${stack.api.url}/api/x402/${invoice.slug}`);
    // Found from the hosted page (Link header and <link rel="payment">) and the vendor's email.
    const page = await fetch(`${stack.api.url}/i/${invoice.slug}`);
    expect(page.headers.get("Link")).toBe(
      `<${invoice.x402_url}>; rel="payment"; type="application/json"; title="x402"`,
    );
    expect(await page.text()).toContain(
      `<link rel="payment" href="${invoice.x402_url}" type="application/json" title="x402"/>`,
    );
    const sent = await stack.waitForEmail(
      (e) =>
        e.subject.startsWith(`Invoice ${invoice.invoice_number}`) &&
        (e.text ?? "").includes("x402"),
    );
    expect(sent.text).toContain(invoice.x402_url);
    const details = (await (
      await stack.request(`/api/invoices/${invoice.invoice_id}`)
    ).json()) as Json;
    expect(details.x402_url).toBe(invoice.x402_url);
    const payer = await newPayer(150_000_000n);

    // With the client's default spend controls ($1 a payment) it refuses a 150.00 invoice.
    const capped = new x402Client().register("eip155:8453", new ExactEvmScheme(payer));
    await expect(wrapFetchWithPayment(fetch, capped)(invoice.x402_url as string)).rejects.toThrow(
      /spendControls/,
    );

    const { pay, statuses } = x402Fetch(payer);
    const response = await pay(invoice.x402_url as string);
    const receipt = (await response.json()) as Json;
    expect(statuses).toEqual([402, 200]);
    expect(response.status).toBe(200);
    const settlement = settlementOf(response);
    expect(settlement).toEqual({
      success: true,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      network: "eip155:8453",
      payer: payer.address,
    });
    expect(receipt).toEqual({
      kind: "invoice",
      slug: invoice.slug,
      invoice_number: invoice.invoice_number,
      merchant_name: expect.any(String),
      status: "settled",
      amount: "150.00",
      amount_due: "0.00",
      tx_hash: settlement.transaction,
      payer: payer.address,
      pdf_url: `${stack.api.url}/api/invoices/by-slug/${invoice.slug}/pdf`,
      status_url: `${stack.api.url}/api/payments/status/${invoice.slug}`,
    });
    const mined = await chain.client.getTransactionReceipt({
      hash: settlement.transaction as `0x${string}`,
    });
    expect(mined.status).toBe("success");
    expect(mined.to?.toLowerCase()).toBe(USDC_ADDRESS.toLowerCase());
    expect(await chain.usdcBalance(payer.address)).toBe(0n);

    await waitForInvoiceStatus(stack.api.url, invoice.invoice_id, "paid");
    await expectPaidWebhook(receiver.received, invoice, settlement.transaction);
    const email = await stack.waitForEmail(
      (e) =>
        e.subject.includes("is paid in full") && (e.text ?? "").includes(settlement.transaction),
    );
    expect(email.text).toContain("150.00 USDC");
    expect(await chain.client.getBalance({ address: payer.address })).toBe(0n);

    // Paid: a 200 with the receipt, never a payment requirement again.
    const again = await fetch(invoice.x402_url as string);
    expect(again.status).toBe(200);
    expect(again.headers.get("PAYMENT-REQUIRED")).toBeNull();
    expect(await again.json()).toMatchObject({
      status: "paid",
      amount: "150.00",
      amount_due: "0.00",
      tx_hash: settlement.transaction,
    });
    // The client, asked again, pays nothing.
    const { pay: payAgain, statuses: second } = x402Fetch(payer);
    expect((await payAgain(invoice.x402_url as string)).status).toBe(200);
    expect(second).toEqual([200]);
    expect(await chain.usdcBalance(payer.address)).toBe(0n);
  });

  test("a payment link: 402, paid by the client, 200; confirmed and webhooked; the payer spent no ETH", async () => {
    const merchant = await claimedMerchant(stack.db);
    const created = (await (
      await stack.request("/api/links", {
        method: "POST",
        json: linkRequest({
          amount: "25.00",
          webhook_url: receiver.url,
          merchant_email: merchant.email,
        }),
        headers: bearer(merchant.key),
      })
    ).json()) as Json & { slug: string; x402_url: string; deposit_address: Address };
    expect(created.x402_url).toBe(`${stack.api.url}/api/x402/${created.slug}`);
    const detail = (await (
      await stack.request(`/api/links/${created.slug}`, { headers: bearer(merchant.key) })
    ).json()) as Json;
    expect(detail.x402_url).toBe(created.x402_url);
    const checkout = await fetch(`${stack.api.url}/pay/${created.slug}`);
    expect(checkout.headers.get("Link")).toContain(`<${created.x402_url}>; rel="payment"`);
    const payer = await newPayer(25_000_000n);

    const first = await fetch(created.x402_url);
    expect(first.status).toBe(402);
    const required = decodePaymentRequiredHeader(first.headers.get("PAYMENT-REQUIRED") ?? "");
    expect(required).toEqual({
      x402Version: 2,
      resource: {
        url: created.x402_url,
        description: expect.stringContaining("Order #1042"),
        mimeType: "application/json",
      },
      accepts: [
        {
          scheme: "exact",
          network: "eip155:8453",
          amount: "25000000",
          asset: USDC_ADDRESS,
          payTo: getAddress(created.deposit_address),
          maxTimeoutSeconds: 300,
          extra: { name: "USD Coin", version: "2" },
        },
      ],
    });

    const { pay, statuses } = x402Fetch(payer);
    const response = await pay(created.x402_url);
    expect(statuses).toEqual([402, 200]);
    const settlement = settlementOf(response);
    expect(settlement).toMatchObject({ success: true, payer: payer.address });
    expect(await response.json()).toMatchObject({
      kind: "link",
      slug: created.slug,
      invoice_number: null,
      pdf_url: null,
      status: "settled",
      amount: "25.00",
      tx_hash: settlement.transaction,
    });
    await waitFor(
      "the link confirmed",
      async () =>
        ((await (await stack.request(`/api/payments/status/${created.slug}`)).json()) as Json)
          .status === "confirmed",
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
    const hook = await waitFor(
      "the link.confirmed webhook",
      async () =>
        receiver.received
          .map((h) => JSON.parse(h.body) as Json)
          .find(
            (body) => body.type === "link.confirmed" && body.tx_hash === settlement.transaction,
          ),
      { timeoutMs: EVENT_MS },
    );
    expect(hook).toMatchObject({ amount_usdc: "25.00" });
    expect(await chain.client.getBalance({ address: payer.address })).toBe(0n);
  });

  test("an invoice priced in EUR: the 402 asks for its quote's USDC, the client pays it, and the invoice is paid in euros", async () => {
    await setLocalFeedRound(chain.url, PRICE_FEEDS.EUR.address, {
      answer: parseFeedAnswer("1.10", 8),
    });
    try {
      const response = await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest({
          currency: "EUR",
          line_items: [{ description: "Consulting", quantity: 1, unit_price: "100.00" }],
        }),
      });
      const invoice = (await response.json()) as Json & { invoice_id: string; x402_url: string };
      const first = await fetch(invoice.x402_url);
      expect(first.status).toBe(402);
      const required = decodePaymentRequiredHeader(first.headers.get("PAYMENT-REQUIRED") ?? "");
      // 100.00 EUR at 1.10 USDC per EUR: what the invoice's page and detail ask for too.
      expect(required.accepts[0]?.amount).toBe("110000000");
      const detail = (await (
        await stack.request(`/api/invoices/${invoice.invoice_id}`)
      ).json()) as Json;
      expect(detail.amount_due_usdc).toBe("110.00");

      const { pay, statuses } = x402Fetch(await newPayer(110_000_000n));
      const paid = await pay(invoice.x402_url);
      expect(statuses).toEqual([402, 200]);
      expect(paid.status).toBe(200);
      await waitForInvoiceStatus(stack.api.url, invoice.invoice_id, "paid");
      const after = (await (
        await stack.request(`/api/invoices/${invoice.invoice_id}`)
      ).json()) as Json;
      expect(after).toMatchObject({
        currency: "EUR",
        paid_amount: "100.00",
        paid_amount_usdc: "110.00",
        amount_due: "0.00",
      });
    } finally {
      await resetLocalFeeds(chain.url);
    }
  });

  test("a payment link priced in EUR: the 402 asks for its checkout's quote, the client pays it, and the link is confirmed in euros", async () => {
    await setLocalFeedRound(chain.url, PRICE_FEEDS.EUR.address, {
      answer: parseFeedAnswer("1.10", 8),
    });
    try {
      const merchant = await claimedMerchant(stack.db);
      const created = (await (
        await stack.request("/api/links", {
          method: "POST",
          json: linkRequest({ currency: "EUR", amount: "100.00", merchant_email: merchant.email }),
          headers: bearer(merchant.key),
        })
      ).json()) as Json & { slug: string; x402_url: string };
      const first = await fetch(created.x402_url);
      expect(first.status).toBe(402);
      const required = decodePaymentRequiredHeader(first.headers.get("PAYMENT-REQUIRED") ?? "");
      // 100.00 EUR at 1.10 USDC per EUR: what its checkout and detail ask for too.
      expect(required.accepts[0]?.amount).toBe("110000000");
      const detailOf = async () =>
        (await (
          await stack.request(`/api/links/${created.slug}`, { headers: bearer(merchant.key) })
        ).json()) as Json;
      expect((await detailOf()).amount_due_usdc).toBe("110.00");

      const { pay, statuses } = x402Fetch(await newPayer(110_000_000n));
      const paid = await pay(created.x402_url);
      expect(statuses).toEqual([402, 200]);
      expect(await paid.json()).toMatchObject({
        kind: "link",
        status: "settled",
        amount: "110.00",
      });
      const after = await waitFor(
        "the EUR link confirmed",
        async () => {
          const detail = await detailOf();
          return detail.status === "confirmed" ? detail : undefined;
        },
        { timeoutMs: EVENT_MS, intervalMs: 100 },
      );
      expect(after).toMatchObject({
        currency: "EUR",
        amount: "100.00",
        amount_received: "100.00",
        paid_amount_usdc: "110.00",
        amount_due: "0.00",
      });
    } finally {
      await resetLocalFeeds(chain.url);
    }
  });

  test("partial: part paid by a plain transfer, the next 402 asks for the rest, which the client pays", async () => {
    const invoice = await createInvoiceOn(stack.api.url, receiver.url);
    const x402 = `${stack.api.url}/api/x402/${invoice.slug}`;
    await chain.payUsdc(devAccount(2), invoice.deposit_address, 50_000_000n);
    await waitForInvoiceStatus(stack.api.url, invoice.invoice_id, "partial");

    const first = await fetch(x402);
    expect(first.status).toBe(402);
    const required = decodePaymentRequiredHeader(first.headers.get("PAYMENT-REQUIRED") ?? "");
    expect(required.accepts[0]?.amount).toBe("100000000");
    expect(required.resource.description).toContain(invoice.invoice_number);

    const payer = await newPayer(100_000_000n);
    const { pay, statuses } = x402Fetch(payer);
    const response = await pay(x402);
    expect(statuses).toEqual([402, 200]);
    expect(await response.json()).toMatchObject({ amount: "100.00", amount_due: "0.00" });
    await waitForInvoiceStatus(stack.api.url, invoice.invoice_id, "paid");
    expect(await chain.client.getBalance({ address: payer.address })).toBe(0n);
  });
});
