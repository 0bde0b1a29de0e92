import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { usdcAbi } from "../../abis/usdc.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { devAccount, useChain } from "../helpers/chain.ts";
import { type AuthorizationBody, signedAuthorization } from "../helpers/payerAuthorization.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { linkRequest } from "../links/fixtures.ts";

type Json = Record<string, unknown>;
type ErrorBody = { error: { code: string; message: string; fields?: { path: string }[] } };

/**
 * The relayer pays the gas of gasless payments, so it is worth attacking: replaying an
 * authorization, forging one, or signing one that pays something other than what is due. Each
 * is refused by the API before anything is stored or sent: the relayer's nonce and ETH do not
 * move, and no row is written for the worker to send.
 */
describe("a replayed, forged or mismatched payer authorization never reaches the chain", () => {
  const chain = useChain();
  const relayerKey = generatePrivateKey();
  const relayer = privateKeyToAccount(relayerKey).address;
  const payer = devAccount(6);
  let stack: TestStack;

  beforeEach(async () => {
    await chain.client.setBalance({ address: relayer, value: parseEther("1") });
    // The payer holds USDC and no ETH at all: only the relayer can pay gas.
    await chain.client.setBalance({ address: payer.address, value: 0n });
    stack = await startStack({ worker: true, env: { RELAYER_PRIVATE_KEY: relayerKey } });
  });
  afterEach(async () => {
    await stack?.stop();
  });

  const createLink = async () =>
    (await (
      await stack.request("/api/links", { method: "POST", json: linkRequest({ amount: "12.50" }) })
    ).json()) as { link_id: string; slug: string; deposit_address: Address };
  const submit = (slug: string, body: AuthorizationBody | Json) =>
    stack.request(`/api/payments/${slug}/authorizations`, { method: "POST", json: body });
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
  const expectRefused = async (response: Response, status: number, code: string) => {
    const body = (await response.json()) as ErrorBody;
    expect([response.status, body.error.code], body.error.message).toEqual([status, code]);
    return body;
  };

  test("a valid authorization is relayed once; the same one again is refused and sends nothing", async () => {
    const link = await createLink();
    const body = await signedAuthorization(payer, { to: link.deposit_address, value: 12_500_000n });
    const first = await submit(link.slug, body);
    // 200 once the worker has submitted it; 202 while it is still queued when the request's own
    // wait runs out (a loaded machine: CI saw it), then its status_url follows it (docs/api.md).
    expect([200, 202]).toContain(first.status);
    const accepted = (await first.json()) as Json;
    const followed = async () =>
      (await (await fetch(accepted.status_url as string)).json()) as Json;
    let relayed = accepted;
    if (first.status === 202) {
      await expect
        .poll(async () => {
          relayed = await followed();
          return relayed.status;
        })
        .toMatch(/^(submitted|mined)$/);
    }
    // Submitted, or already mined when the worker's first look at it found it in a block.
    expect(["submitted", "mined"]).toContain(relayed.status);
    expect(relayed).toMatchObject({ amount: "12.50", payer: payer.address });
    const receipt = await chain.client.waitForTransactionReceipt({
      hash: relayed.tx_hash as `0x${string}`,
    });
    expect([receipt.status, receipt.from]).toEqual(["success", relayer.toLowerCase()]);
    expect(await chain.usdcBalance(link.deposit_address)).toBe(12_500_000n);
    expect(await chain.client.getBalance({ address: payer.address })).toBe(0n);

    const before = await relayerState();
    await expectRefused(await submit(link.slug, body), 409, "authorization_used");
    // Even to another link owing the same amount: it pays the first link's address.
    const other = await createLink();
    await expectRefused(await submit(other.slug, body), 422, "wrong_recipient");
    expect(await relayerState()).toEqual(before);
    expect(await storedRows()).toBe(1);
  });

  test("wrong amount, wrong address, expired, forged, tampered, short balance, used nonce: each refused, nothing sent", async () => {
    const link = await createLink();
    const to = link.deposit_address;
    const before = await relayerState();
    const now = BigInt(Math.floor(Date.now() / 1000));

    const wrongAmount = await signedAuthorization(payer, { to, value: 12_000_000n });
    const refused = await expectRefused(await submit(link.slug, wrongAmount), 422, "wrong_amount");
    expect(refused.error.fields?.[0]?.path).toBe("value");
    expect(refused.error.message).toContain("exactly 12.50 USDC is due");
    const tooMuch = await signedAuthorization(payer, { to, value: 12_500_001n });
    await expectRefused(await submit(link.slug, tooMuch), 422, "wrong_amount");

    const elsewhere = privateKeyToAccount(generatePrivateKey()).address;
    const wrongAddress = await signedAuthorization(payer, { to: elsewhere, value: 12_500_000n });
    await expectRefused(await submit(link.slug, wrongAddress), 422, "wrong_recipient");

    const expired = await signedAuthorization(payer, {
      to,
      value: 12_500_000n,
      validBefore: now - 10n,
    });
    await expectRefused(await submit(link.slug, expired), 422, "authorization_expired");
    const forever = await signedAuthorization(payer, {
      to,
      value: 12_500_000n,
      validBefore: now + 86_400n,
    });
    await expectRefused(await submit(link.slug, forever), 422, "validity_too_long");

    // Someone else's key signing for the payer's address.
    const forger = privateKeyToAccount(generatePrivateKey());
    const forged = await signedAuthorization(forger, {
      to,
      value: 12_500_000n,
      from: payer.address,
    });
    await expectRefused(await submit(link.slug, forged), 422, "invalid_signature");
    // The payer's real signature, its terms changed afterwards.
    const signed = await signedAuthorization(payer, { to, value: 12_500_000n });
    const tampered = { ...signed, valid_before: String(BigInt(signed.valid_before) + 60n) };
    await expectRefused(await submit(link.slug, tampered), 422, "invalid_signature");

    // A payer without the USDC.
    const poor = privateKeyToAccount(generatePrivateKey());
    const short = await signedAuthorization(poor, { to, value: 12_500_000n });
    await expectRefused(await submit(link.slug, short), 422, "insufficient_balance");

    // A nonce USDC has already used (the payer spent the same authorization elsewhere first).
    const spent = await signedAuthorization(payer, { to: elsewhere, value: 1n });
    await chain.client.setBalance({ address: devAccount(5).address, value: parseEther("1") });
    await chain.payWithAuthorization(payer, elsewhere, 1n, devAccount(5), spent.nonce as never);
    const reused = await signedAuthorization(payer, {
      to,
      value: 12_500_000n,
      nonce: spent.nonce as `0x${string}`,
    });
    await expectRefused(await submit(link.slug, reused), 409, "authorization_used");

    // Malformed: field-level 400s, every field at once.
    const malformed = await submit(link.slug, {
      ...signed,
      value: "12.5",
      nonce: "0x12",
      extra: 1,
    });
    const invalid = await expectRefused(malformed, 400, "validation_failed");
    expect(invalid.error.fields?.map((field) => field.path).sort()).toEqual([
      "extra",
      "nonce",
      "value",
    ]);

    expect(await relayerState()).toEqual(before);
    expect(await storedRows()).toBe(0);
    expect(await chain.usdcBalance(to)).toBe(0n);
  });

  test("nothing due: refused; unknown slugs are 404", async () => {
    const link = await createLink();
    const to = link.deposit_address;
    // Paid by a plain transfer first (counted as the reconcile job would, with no indexer
    // here): nothing is left to relay.
    await chain.payUsdc(devAccount(2), to, 12_500_000n);
    await stack.db
      .insertInto("app.payment_state")
      .values({
        deposit_address: to.toLowerCase(),
        link_id: link.link_id,
        invoice_id: null,
        received: 12_500_000n,
        counted: [],
        latest_tx_hash: null,
        latest_paid_at: null,
        updated_at: new Date(),
      })
      .execute();
    const before = await relayerState();
    const late = await signedAuthorization(payer, { to, value: 12_500_000n });
    await expectRefused(await submit(link.slug, late), 409, "nothing_due");
    await expectRefused(await submit("nosuchslug12", late), 404, "not_found");
    expect(await relayerState()).toEqual(before);
    expect(await storedRows()).toBe(0);
  });
});

describe("the relayer is no free gas tap: per invoice or link, and per day", () => {
  const chain = useChain();
  const relayerKey = generatePrivateKey();
  const payer = devAccount(6);
  let stack: TestStack;

  beforeEach(async () => {
    await chain.client.setBalance({
      address: privateKeyToAccount(relayerKey).address,
      value: parseEther("1"),
    });
    stack = await startStack({
      env: {
        RELAYER_PRIVATE_KEY: relayerKey,
        GASLESS_PER_SLUG_PER_MIN: "2",
        // Less than one payment's gas: every valid authorization is over the day's budget.
        RELAYER_DAILY_GAS_BUDGET: "1000",
      },
    });
  });
  afterEach(async () => {
    await stack?.stop();
  });

  test("a spent daily budget refuses with Retry-After; a third try on one link within a minute is rate-limited", async () => {
    const link = (await (
      await stack.request("/api/links", { method: "POST", json: linkRequest({ amount: "1.00" }) })
    ).json()) as { slug: string; deposit_address: Address };
    const body = await signedAuthorization(payer, { to: link.deposit_address, value: 1_000_000n });
    const submit = () =>
      stack.request(`/api/payments/${link.slug}/authorizations`, { method: "POST", json: body });

    const over = await submit();
    expect(over.status).toBe(429);
    expect(((await over.json()) as ErrorBody).error.code).toBe("relayer_budget_exhausted");
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);

    expect((await submit()).status).toBe(429);
    const limited = await submit();
    expect([limited.status, ((await limited.json()) as ErrorBody).error.code]).toEqual([
      429,
      "rate_limited",
    ]);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const rows = await stack.db.selectFrom("app.payer_authorizations").selectAll().execute();
    expect(rows).toEqual([]);
    // The simulation spent nothing: USDC did not move.
    expect(
      await chain.client.readContract({
        address: USDC_ADDRESS,
        abi: usdcAbi,
        functionName: "balanceOf",
        args: [link.deposit_address],
      }),
    ).toBe(0n);
  });
});
