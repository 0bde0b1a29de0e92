import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, test } from "vitest";
import { devAccount, useChain } from "../helpers/chain.ts";
import { type AuthorizationBody, signedAuthorization } from "../helpers/payerAuthorization.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { linkRequest } from "../links/fixtures.ts";

type Answer = { status: number; code: string | undefined; body: Record<string, unknown> };

/**
 * The per-invoice budget of gasless payments (GASLESS_PER_SLUG_PER_MIN, 10 a minute) was
 * charged before the signature was checked: ten junk bodies for an invoice from one address,
 * and the real payer's correctly signed authorization got 429. Now the per-IP budget is taken
 * first, as before, but the per-invoice one only once the signature is proven the payer's, and
 * per payer: nobody's junk, nor valid signatures of throwaway keys, uses up the real payer's.
 */
describe("junk authorizations cannot block an invoice's gasless payment", () => {
  const chain = useChain();
  const relayerKey = generatePrivateKey();
  const payer = devAccount(6);
  const attacker = privateKeyToAccount(generatePrivateKey());
  let stack: TestStack;

  const start = async (env: NodeJS.ProcessEnv) => {
    await chain.client.setBalance({
      address: privateKeyToAccount(relayerKey).address,
      value: parseEther("1"),
    });
    // Behind a proxy (loopback is trusted): X-Forwarded-For names the client.
    stack = await startStack({
      worker: true,
      env: { RELAYER_PRIVATE_KEY: relayerKey, TRUST_PROXY: "1", ...env },
    });
    return (await (
      await stack.request("/api/links", { method: "POST", json: linkRequest({ amount: "1.00" }) })
    ).json()) as { slug: string; deposit_address: Address };
  };
  afterEach(async () => {
    await stack?.stop();
  });

  const submit = async (slug: string, body: AuthorizationBody, ip: string): Promise<Answer> => {
    const response = await stack.request(`/api/payments/${slug}/authorizations`, {
      method: "POST",
      json: body,
      headers: { "X-Forwarded-For": ip },
    });
    const json = (await response.json()) as Record<string, unknown>;
    return {
      status: response.status,
      code: (json.error as { code?: string } | undefined)?.code,
      body: json,
    };
  };
  /** Terms that pay the link exactly, in the payer's name, signed by the attacker's key. */
  const forged = (to: Address) =>
    signedAuthorization(attacker, { to, value: 1_000_000n, from: payer.address });
  /** Correctly signed by a throwaway key that holds no USDC. */
  const throwaway = (to: Address) =>
    signedAuthorization(privateKeyToAccount(generatePrivateKey()), { to, value: 1_000_000n });
  const expectAccepted = (answer: Answer) => {
    expect([200, 202], JSON.stringify(answer.body)).toContain(answer.status);
    expect(answer.body).toMatchObject({ payer: payer.address, amount: "1.00" });
  };

  test("ten junk authorizations from one IP, then the real payer's from another: accepted, not 429", async () => {
    const link = await start({});
    const junk: Answer[] = [];
    for (let i = 0; i < 5; i++)
      junk.push(await submit(link.slug, await forged(link.deposit_address), "198.51.100.7"));
    for (let i = 0; i < 5; i++)
      junk.push(await submit(link.slug, await throwaway(link.deposit_address), "198.51.100.7"));
    expect(junk.map((answer) => answer.code)).toEqual([
      ...Array(5).fill("invalid_signature"),
      ...Array(5).fill("insufficient_balance"),
    ]);
    // The junk's own address is out of budget (RATE_LIMIT_GASLESS_PER_MIN, 10): per IP, first.
    const eleventh = await submit(link.slug, await forged(link.deposit_address), "198.51.100.7");
    expect([eleventh.status, eleventh.code]).toEqual([429, "rate_limited"]);

    const real = await signedAuthorization(payer, { to: link.deposit_address, value: 1_000_000n });
    expectAccepted(await submit(link.slug, real, "203.0.113.20"));
  });

  test("an invalid signature takes nothing of the per-invoice budget; a proven one takes its own payer's only", async () => {
    const link = await start({ GASLESS_PER_SLUG_PER_MIN: "2", RATE_LIMIT_GASLESS_PER_MIN: "100" });
    for (let i = 0; i < 5; i++) {
      const answer = await submit(link.slug, await forged(link.deposit_address), "198.51.100.8");
      expect([answer.status, answer.code]).toEqual([422, "invalid_signature"]);
    }
    // One throwaway key's correctly signed authorizations spend that payer's budget: 2, then 429.
    const stranger = privateKeyToAccount(generatePrivateKey());
    const strangers: (string | undefined)[] = [];
    for (let i = 0; i < 3; i++) {
      const body = await signedAuthorization(stranger, {
        to: link.deposit_address,
        value: 1_000_000n,
      });
      strangers.push((await submit(link.slug, body, "198.51.100.8")).code);
    }
    expect(strangers).toEqual(["insufficient_balance", "insufficient_balance", "rate_limited"]);

    const real = await signedAuthorization(payer, { to: link.deposit_address, value: 1_000_000n });
    expectAccepted(await submit(link.slug, real, "198.51.100.8"));
  });
});
