import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, codeOf } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { linkRequest } from "../links/fixtures.ts";
import { freshAddress, until } from "../refunds/helpers.ts";

/**
 * The attack: a payment link's slug is in every checkout URL, iframe and widget snippet, and
 * `POST /api/links/{slug}/refunds` once let anyone holding it, without a credential, send the
 * link's money to an address of their own (or take the refund's claim link), on an open-mode
 * Remit whose merchant had no account yet. A slug authorises nothing: on chain, the attacker
 * receives nothing, before the link's money is swept and after; the merchant's own key still
 * refunds.
 */
describe("a payment link's public slug refunding its money to anyone", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ worker: true, indexer: true });
  });
  afterAll(async () => {
    await stack?.stop();
    await chain.revert();
  });

  test("no credential, or another merchant's key: refused, nothing written, nothing paid out", async () => {
    // Open mode, the spec's open creation: a merchant without an account makes a managed link.
    const merchantEmail = `shop-${crypto.randomUUID()}@example.com`;
    const created = await answer(
      await stack.request("/api/links", {
        method: "POST",
        json: linkRequest({ merchant_email: merchantEmail, amount: "5.00" }),
      }),
    );
    expect(created.status).toBe(201);
    const slug = created.body.slug as string;
    const deposit = (
      await stack.db
        .selectFrom("app.payment_links")
        .select("deposit_address")
        .where("slug", "=", slug)
        .executeTakeFirstOrThrow()
    ).deposit_address as Address;
    await chain.payUsdc(devAccount(6), deposit, 5_000_000n);
    await until("the payment indexed", async () => {
      const status = (await (await stack.request(`/api/payments/status/${slug}`)).json()) as {
        status: string;
      };
      return status.status === "confirmed";
    });

    const attacker = freshAddress();
    const intruder = await claimedMerchant(stack.db);
    const attempts = async () => {
      for (const json of [
        { to: attacker },
        {},
        { to_sender: true },
        { to: attacker, amount: "1.00" },
      ]) {
        const anonymous = await answer(
          await stack.request(`/api/links/${slug}/refunds`, { method: "POST", json }),
        );
        expect([anonymous.status, codeOf(anonymous.body)]).toEqual([
          401,
          "authentication_required",
        ]);
        expect(anonymous.body).not.toHaveProperty("claim_url");
        const foreign = await answer(
          await stack.request(`/api/links/${slug}/refunds`, {
            method: "POST",
            json,
            headers: bearer(intruder.key),
          }),
        );
        expect([foreign.status, codeOf(foreign.body)]).toEqual([404, "not_found"]);
      }
      expect(await stack.db.selectFrom("app.refunds").select("id").execute()).toEqual([]);
      expect(await chain.usdcBalance(attacker)).toBe(0n);
    };

    // Before the sweep: the money is on the deposit address.
    await attempts();
    // After it: the money is in the merchant's managed wallet.
    await until("the link's money swept", async () => {
      const sweeps = await stack.db
        .selectFrom("app.sweeps")
        .select("status")
        .where("deposit_address", "=", deposit.toLowerCase())
        .execute();
      return sweeps.length === 1 && sweeps[0]?.status === "confirmed";
    });
    await attempts();
    expect(await chain.usdcBalance(deposit)).toBe(0n);

    // The merchant, once it has a key for its email (a claim), refunds its own link.
    const owner = await claimedMerchant(stack.db, { email: merchantEmail });
    const refund = await answer(
      await stack.request(`/api/links/${slug}/refunds`, {
        method: "POST",
        json: { to: freshAddress(), amount: "1.00" },
        headers: bearer(owner.key),
      }),
    );
    expect([refund.status, refund.body.source]).toEqual([201, "managed_wallet"]);
  });
});
