import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { type Address, getAddress } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { answer, codeOf } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { linkRequest } from "../links/fixtures.ts";

/**
 * The attack: a `PAYMENT-SIGNATURE` whose `accepted.asset` is not an address, sent to any
 * link's x402 URL by anyone: 500 `internal_error` (viem's InvalidAddressError escaping). Every
 * address of the payload is now checked with the rest of it: a 400 `invalid_payload`, nothing
 * stored.
 */
describe("an x402 payload whose addresses are not addresses", () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack({ env: { RELAYER_PRIVATE_KEY: generatePrivateKey() } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const header = (payTo: Address, changes: { asset?: string; from?: string; to?: string }) => {
    const payload = {
      x402Version: 2,
      accepted: {
        scheme: "exact",
        network: "eip155:8453",
        amount: "12500000",
        asset: changes.asset ?? USDC_ADDRESS,
        payTo,
        maxTimeoutSeconds: 300,
        extra: { name: "USD Coin", version: "2" },
      },
      payload: {
        signature: `0x${"11".repeat(65)}`,
        authorization: {
          from: changes.from ?? "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
          to: changes.to ?? payTo,
          value: "12500000",
          validAfter: "0",
          validBefore: "99999999999",
          nonce: `0x${"22".repeat(32)}`,
        },
      },
    } as PaymentPayload;
    return encodePaymentSignatureHeader(payload);
  };

  test("asset, from or to not an address: 400 invalid_payload, never a 500, nothing stored", async () => {
    const link = (await (
      await stack.request("/api/links", { method: "POST", json: linkRequest({ amount: "12.50" }) })
    ).json()) as { slug: string; deposit_address: Address; x402_url: string };
    const payTo = getAddress(link.deposit_address);
    const forged = [
      { asset: "usdc" },
      { asset: "0x1234" },
      { asset: `0x${"zz".repeat(20)}` },
      { asset: "" },
      { from: "0xnot-an-address" },
      { to: `${payTo}00` },
    ];
    for (const changes of forged) {
      const paid = await answer(
        await fetch(link.x402_url, { headers: { "PAYMENT-SIGNATURE": header(payTo, changes) } }),
      );
      expect([paid.status, codeOf(paid.body)], JSON.stringify(changes)).toEqual([
        400,
        "invalid_payload",
      ]);
    }
    const stored = await stack.db.selectFrom("app.payer_authorizations").select("id").execute();
    expect(stored).toEqual([]);
  });
});
