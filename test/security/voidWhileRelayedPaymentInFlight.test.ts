import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { type Address, getAddress, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { answer, bearer, claimedMerchant, codeOf, type Merchant } from "../accounts/accounts.ts";
import { devAccount, useChain } from "../helpers/chain.ts";
import { signedAuthorization } from "../helpers/payerAuthorization.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Invoice = {
  invoice_id: string;
  slug: string;
  deposit_address: Address;
  x402_url: string;
  total_amount: string;
};

/**
 * The attack: void an invoice 0.3 s after an x402 or gasless payment to it was accepted. The
 * void answered 200, the relayer still paid, the invoice ended `void` holding the money, and the
 * x402 client was told `settled`. Now a relayed payment accepted and not yet counted is money in
 * flight: the void is a 409 `payment_in_progress` and changes nothing; once the payment is done
 * (here: failed), the void goes through, and no payment is relayed to a void invoice after.
 * No worker runs, so the accepted payment stays in flight as long as the test needs.
 */
describe("void while a relayed payment is in flight", () => {
  const chain = useChain();
  const relayerKey = generatePrivateKey();
  let stack: TestStack;
  let merchant: Merchant;

  beforeEach(async () => {
    await chain.client.setBalance({
      address: privateKeyToAccount(relayerKey).address,
      value: parseEther("1"),
    });
    stack = await startStack({
      env: {
        RELAYER_PRIVATE_KEY: relayerKey,
        RELAYER_SUBMIT_WAIT_MS: "0",
        X402_SETTLE_WAIT_MS: "0",
      },
    });
    merchant = await claimedMerchant(stack.db);
  });
  afterEach(async () => {
    await stack?.stop();
  });

  const newInvoice = async (): Promise<Invoice> => {
    const created = await answer(
      await stack.request("/api/invoices", {
        method: "POST",
        headers: bearer(merchant.key),
        json: invoiceRequest({ merchant_email: merchant.email }),
      }),
    );
    expect(created.status).toBe(201);
    return created.body as Invoice;
  };
  const voidIt = async (invoice: Invoice) =>
    answer(
      await stack.request(`/api/invoices/${invoice.invoice_id}/void`, {
        method: "POST",
        headers: bearer(merchant.key),
      }),
    );
  const statusOf = async (invoice: Invoice) =>
    (
      await stack.db
        .selectFrom("app.invoices")
        .select("status")
        .where("id", "=", invoice.invoice_id)
        .executeTakeFirstOrThrow()
    ).status;
  const x402Header = async (invoice: Invoice) => {
    const body = await signedAuthorization(devAccount(7), {
      to: invoice.deposit_address,
      value: 150_125_000n,
    });
    const payload: PaymentPayload = {
      x402Version: 2,
      accepted: {
        scheme: "exact",
        network: "eip155:8453",
        amount: "150125000",
        asset: USDC_ADDRESS,
        payTo: getAddress(invoice.deposit_address),
        maxTimeoutSeconds: 300,
        extra: { name: "USD Coin", version: "2" },
      },
      payload: {
        signature: body.signature,
        authorization: {
          from: body.from,
          to: body.to,
          value: body.value,
          validAfter: body.valid_after,
          validBefore: body.valid_before,
          nonce: body.nonce,
        },
      },
    };
    return encodePaymentSignatureHeader(payload);
  };

  test("gasless: void is 409 payment_in_progress while it is relayed; once it failed, void goes through", async () => {
    const invoice = await newInvoice();
    const body = await signedAuthorization(devAccount(7), {
      to: invoice.deposit_address,
      value: 150_125_000n,
    });
    const accepted = await stack.request(`/api/payments/${invoice.slug}/authorizations`, {
      method: "POST",
      json: body,
    });
    expect([200, 202]).toContain(accepted.status);

    const refused = await voidIt(invoice);
    expect([refused.status, codeOf(refused.body)]).toEqual([409, "payment_in_progress"]);
    expect(await statusOf(invoice)).toBe("sent");

    // The relay failed: no money in flight, the void goes through.
    await stack.db
      .updateTable("app.payer_authorizations")
      .set({ status: "failed" })
      .where("deposit_address", "=", invoice.deposit_address.toLowerCase())
      .execute();
    expect((await voidIt(invoice)).status).toBe(200);
    expect(await statusOf(invoice)).toBe("void");
  });

  test("x402: void is refused while the payment is in flight, and a void invoice is never settled", async () => {
    const invoice = await newInvoice();
    const paid = await fetch(invoice.x402_url, {
      headers: { "PAYMENT-SIGNATURE": await x402Header(invoice) },
    });
    expect(paid.status).toBe(202);
    const refused = await voidIt(invoice);
    expect([refused.status, codeOf(refused.body)]).toEqual([409, "payment_in_progress"]);
    const polled = await answer(await fetch(invoice.x402_url));
    expect((polled.body as { status: string }).status).toBe("processing");

    await stack.db
      .updateTable("app.payer_authorizations")
      .set({ status: "failed" })
      .where("deposit_address", "=", invoice.deposit_address.toLowerCase())
      .execute();
    expect((await voidIt(invoice)).status).toBe(200);
    // A new payment to the void invoice: nothing is due, nothing relayed, never `settled`.
    const again = await answer(
      await fetch(invoice.x402_url, {
        headers: { "PAYMENT-SIGNATURE": await x402Header(invoice) },
      }),
    );
    expect((again.body as { status: string }).status).toBe("void");
    const open = await stack.db
      .selectFrom("app.payer_authorizations")
      .select("id")
      .where("deposit_address", "=", invoice.deposit_address.toLowerCase())
      .where("status", "in", ["pending", "sending", "submitted", "mined"])
      .execute();
    expect(open).toEqual([]);
  });
});
