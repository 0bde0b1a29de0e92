import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  authorizationMessage,
  findPayable,
  verifyAuthorization,
} from "../../app/payments/verifyAuthorization.ts";
import { Refusal } from "../../app/refusal.ts";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChain } from "../helpers/chain.ts";
import { signedAuthorization } from "../helpers/payerAuthorization.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { linkRequest } from "../links/fixtures.ts";

/**
 * The gasless route reads what a link owes, then checks that no relayed payment is on its way.
 * A payment the indexer counts between those two reads is in neither: the first saw nothing
 * received, the second no open authorization. A second payer's authorization arriving in that
 * window was accepted and relayed: the link paid twice. The due is read again after the check.
 * The window is a few milliseconds on a quiet machine; here it is opened on purpose by handing
 * the verifier the state as it was read before the payment was counted.
 */
describe("a payment counted while a gasless authorization is verified is not paid again", () => {
  const chain = useChain();
  const relayer = privateKeyToAccount(generatePrivateKey()).address;
  let stack: TestStack;

  beforeEach(async () => {
    await chain.client.setBalance({ address: relayer, value: parseEther("1") });
    stack = await startStack({ indexer: true, worker: true });
  });
  afterEach(async () => {
    await stack?.stop();
  });

  test("the stale due is refused with nothing_due once the first payment is counted", async () => {
    const link = (await (
      await stack.request("/api/links", { method: "POST", json: linkRequest({ amount: "12.50" }) })
    ).json()) as { slug: string; deposit_address: Address };
    const before = await findPayable({ db: stack.db }, link.slug);
    expect(before?.due).toBe(12_500_000n);
    if (!before) throw new Error("no payable");

    // The first payer pays in full; the indexer counts it.
    await chain.payUsdc(devAccount(3), link.deposit_address, 12_500_000n);
    await waitFor(
      "the payment counted",
      async () => (await findPayable({ db: stack.db }, link.slug))?.due === 0n,
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );

    // A second payer's authorization, verified against the due as read before the count.
    const body = await signedAuthorization(devAccount(4), {
      to: link.deposit_address,
      value: 12_500_000n,
    });
    const verdict = verifyAuthorization(
      { db: stack.db, chain: chain.client, relayer },
      before,
      authorizationMessage(body),
      body.signature as `0x${string}`,
      BigInt(Math.floor(Date.now() / 1000)),
    ).then(
      () => "accepted",
      (error: unknown) => (error instanceof Refusal ? `${error.kind} ${error.code}` : error),
    );
    expect(await verdict).toBe("conflict nothing_due");
  });
});
