import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { type Address, getAddress, type LocalAccount, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { devAccount, useChain } from "../helpers/chain.ts";
import { type AuthorizationBody, signedAuthorization } from "../helpers/payerAuthorization.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { linkRequest } from "../links/fixtures.ts";

type Json = Record<string, unknown>;

/**
 * The x402 resource makes the relayer pay gas for whoever sends a PAYMENT-SIGNATURE, so it is
 * attacked like the gasless route: a payment replayed, forged, tampered with, or signed for
 * another amount, another recipient or a validity already past. Each is answered 402 with its
 * x402 reason and what is still due, before anything is stored or sent: the relayer's nonce and
 * ETH do not move.
 */
describe("a replayed, forged or mismatched x402 payment never reaches the chain", () => {
  const chain = useChain();
  const relayerKey = generatePrivateKey();
  const relayer = privateKeyToAccount(relayerKey).address;
  const payer = devAccount(6);
  let stack: TestStack;

  beforeEach(async () => {
    await chain.client.setBalance({ address: relayer, value: parseEther("1") });
    await chain.client.setBalance({ address: payer.address, value: 0n });
    stack = await startStack({ worker: true, env: { RELAYER_PRIVATE_KEY: relayerKey } });
  });
  afterEach(async () => {
    await stack?.stop();
  });

  const createLink = async () =>
    (await (
      await stack.request("/api/links", { method: "POST", json: linkRequest({ amount: "12.50" }) })
    ).json()) as { slug: string; deposit_address: Address; x402_url: string };
  /** The PAYMENT-SIGNATURE header of an authorization, as @x402/evm's client builds it. */
  const paymentHeader = (link: { deposit_address: Address }, body: AuthorizationBody) => {
    const payload: PaymentPayload = {
      x402Version: 2,
      accepted: {
        scheme: "exact",
        network: "eip155:8453",
        amount: "12500000",
        asset: USDC_ADDRESS,
        payTo: getAddress(link.deposit_address),
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
  const pay = (link: { x402_url: string }, header: string) =>
    fetch(link.x402_url, { headers: { "PAYMENT-SIGNATURE": header } });
  const relayerState = async () => ({
    nonce: await chain.client.getTransactionCount({ address: relayer }),
    balance: await chain.client.getBalance({ address: relayer }),
  });
  const storedRows = async () =>
    Number(
      (
        await stack.db
          .selectFrom("app.payer_authorizations")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** A 402 naming `reason` in PAYMENT-REQUIRED, which still asks for the 12.50 due. */
  const expectRefused = async (response: Response, reason: string, code: string) => {
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect([response.status, body.error.code], body.error.message).toEqual([402, code]);
    const required = decodePaymentRequiredHeader(response.headers.get("PAYMENT-REQUIRED") ?? "");
    expect(required.error).toBe(reason);
    expect(required.accepts[0]?.amount).toBe("12500000");
    expect(response.headers.get("PAYMENT-RESPONSE")).toBeNull();
  };

  test("a valid payment settles once; the same PAYMENT-SIGNATURE again is refused and sends nothing", async () => {
    const link = await createLink();
    const header = paymentHeader(
      link,
      await signedAuthorization(payer, { to: link.deposit_address, value: 12_500_000n }),
    );
    const first = await pay(link, header);
    expect(first.status).toBe(200);
    const settlement = decodePaymentResponseHeader(first.headers.get("PAYMENT-RESPONSE") ?? "");
    expect(settlement).toMatchObject({ success: true, payer: payer.address });
    const receipt = await chain.client.getTransactionReceipt({
      hash: settlement.transaction as `0x${string}`,
    });
    expect([receipt.status, receipt.from]).toEqual(["success", relayer.toLowerCase()]);
    expect(await chain.client.getBalance({ address: payer.address })).toBe(0n);

    // No indexer here: the payment is not counted yet, so 12.50 is still "due" on paper.
    const before = await relayerState();
    await expectRefused(
      await pay(link, header),
      "invalid_exact_evm_nonce_already_used",
      "authorization_used",
    );
    // Sent to another link owing the same amount: it pays the first link's address.
    const other = await createLink();
    await expectRefused(
      await pay(other, header),
      "invalid_exact_evm_payload_recipient_mismatch",
      "wrong_recipient",
    );
    expect(await relayerState()).toEqual(before);
    expect(await storedRows()).toBe(1);
  });

  test("wrong amount, wrong payTo, expired, forged, tampered, malformed: each a 402 with its reason, nothing sent", async () => {
    const link = await createLink();
    const to = link.deposit_address;
    const before = await relayerState();
    const now = BigInt(Math.floor(Date.now() / 1000));
    const signed = (
      terms: Parameters<typeof signedAuthorization>[1],
      signer: LocalAccount = payer,
    ) => signedAuthorization(signer, terms).then((body) => paymentHeader(link, body));

    await expectRefused(
      await pay(link, await signed({ to, value: 12_000_000n })),
      "invalid_exact_evm_payload_authorization_value_mismatch",
      "wrong_amount",
    );
    const elsewhere = privateKeyToAccount(generatePrivateKey()).address;
    await expectRefused(
      await pay(link, await signed({ to: elsewhere, value: 12_500_000n })),
      "invalid_exact_evm_payload_recipient_mismatch",
      "wrong_recipient",
    );
    await expectRefused(
      await pay(link, await signed({ to, value: 12_500_000n, validBefore: now - 10n })),
      "invalid_exact_evm_payload_authorization_valid_before",
      "authorization_expired",
    );
    await expectRefused(
      await pay(link, await signed({ to, value: 12_500_000n, validAfter: now + 600n })),
      "invalid_exact_evm_payload_authorization_valid_after",
      "not_yet_valid",
    );
    // Someone else's key signing in the payer's name.
    const forger = privateKeyToAccount(generatePrivateKey());
    await expectRefused(
      await pay(link, await signed({ to, value: 12_500_000n, from: payer.address }, forger)),
      "invalid_exact_evm_payload_signature",
      "invalid_signature",
    );
    // The payer's real signature, its amount raised afterwards.
    const real = await signedAuthorization(payer, { to, value: 12_500_000n });
    await expectRefused(
      await pay(link, paymentHeader(link, { ...real, value: "13000000" })),
      "invalid_exact_evm_payload_authorization_value_mismatch",
      "wrong_amount",
    );
    const bumped = { ...real, valid_before: String(BigInt(real.valid_before) + 60n) };
    await expectRefused(
      await pay(link, paymentHeader(link, bumped)),
      "invalid_exact_evm_payload_signature",
      "invalid_signature",
    );
    // A payer without the USDC.
    const poor = privateKeyToAccount(generatePrivateKey());
    await expectRefused(
      await pay(link, await signed({ to, value: 12_500_000n }, poor)),
      "insufficient_funds",
      "insufficient_balance",
    );

    // Not base64 JSON, or not an exact EVM payload: 400, invalid_payload.
    for (const junk of ["not base64!", Buffer.from('{"x402Version":2}').toString("base64")]) {
      const response = await pay(link, junk);
      expect(response.status).toBe(400);
      const required = decodePaymentRequiredHeader(response.headers.get("PAYMENT-REQUIRED") ?? "");
      expect(required.error).toBe("invalid_payload");
    }

    expect(await relayerState()).toEqual(before);
    expect(await storedRows()).toBe(0);
    // The real payment still goes through after all that.
    const ok = await pay(link, paymentHeader(link, real));
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Json).status).toBe("settled");
  });
});
