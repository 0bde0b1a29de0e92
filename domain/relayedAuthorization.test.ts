import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, test } from "vitest";
import {
  AUTHORIZATION_WINDOW,
  refuseAuthorizationTerms,
  secondsUntilNextUtcDay,
  signerOfAuthorization,
  utcDayStart,
  withinGasBudget,
} from "./relayedAuthorization.ts";
import { type TransferAuthorization, transferAuthorizationTypedData } from "./usdcAuthorization.ts";

const payer = privateKeyToAccount(`0x${"11".repeat(32)}`);
const deposit = privateKeyToAccount(`0x${"22".repeat(32)}`).address;
const now = 1_800_000_000n;
const message: TransferAuthorization = {
  from: payer.address,
  to: deposit,
  value: 12_500_000n,
  validAfter: 0n,
  validBefore: now + 600n,
  nonce: `0x${"ab".repeat(32)}`,
};
const expected = { depositAddress: deposit, due: 12_500_000n, nowSeconds: now };

describe("refuseAuthorizationTerms", () => {
  test("exactly the amount due, to the deposit address, valid now for ten minutes: accepted", () => {
    expect(refuseAuthorizationTerms(message, expected)).toBeNull();
    // Address case does not matter: the comparison is of addresses, not strings.
    expect(
      refuseAuthorizationTerms({ ...message, to: deposit.toLowerCase() as Hex }, expected),
    ).toBeNull();
  });

  test.each([
    ["another recipient", { to: payer.address }, "wrong_recipient", "to"],
    ["one unit less", { value: 12_499_999n }, "wrong_amount", "value"],
    ["one unit more", { value: 12_500_001n }, "wrong_amount", "value"],
    ["valid only later", { validAfter: now + 1n }, "not_yet_valid", "valid_after"],
    ["expired", { validBefore: now - 1n }, "authorization_expired", "valid_before"],
    [
      "expiring before it could be sent",
      { validBefore: now + BigInt(AUTHORIZATION_WINDOW.minRemainingSeconds) - 1n },
      "authorization_expired",
      "valid_before",
    ],
    [
      "valid for too long",
      { validBefore: now + BigInt(AUTHORIZATION_WINDOW.maxValiditySeconds) + 1n },
      "validity_too_long",
      "valid_before",
    ],
  ] as const)("%s: %s", (_, change, code, field) => {
    expect(refuseAuthorizationTerms({ ...message, ...change }, expected)).toMatchObject({
      code,
      field,
    });
  });

  test("the wrong amount names what is due, in USDC", () => {
    expect(refuseAuthorizationTerms({ ...message, value: 1_000_000n }, expected)?.message).toBe(
      "the authorization is for 1.00 USDC; exactly 12.50 USDC is due",
    );
  });

  test("the window's edges: exactly the minimum left and exactly the maximum ahead pass", () => {
    const { minRemainingSeconds, maxValiditySeconds } = AUTHORIZATION_WINDOW;
    for (const validBefore of [now + BigInt(minRemainingSeconds), now + BigInt(maxValiditySeconds)])
      expect(refuseAuthorizationTerms({ ...message, validBefore }, expected)).toBeNull();
  });
});

describe("signerOfAuthorization", () => {
  test("recovers the payer from their EIP-712 signature, and no one from another message", async () => {
    const signature = await payer.signTypedData(transferAuthorizationTypedData(message));
    expect(await signerOfAuthorization(message, signature)).toBe(payer.address);
    // The same signature over another amount recovers some other address, never the payer.
    expect(await signerOfAuthorization({ ...message, value: 1n }, signature)).not.toBe(
      payer.address,
    );
  });

  test("garbage is no signature", async () => {
    expect(await signerOfAuthorization(message, "0x1234")).toBeNull();
  });
});

describe("the daily gas budget", () => {
  test("counts what is spent and reserved, and 0 relays nothing", () => {
    expect(withinGasBudget(900_000n, 100_000n, 1_000_000n)).toBe(true);
    expect(withinGasBudget(900_001n, 100_000n, 1_000_000n)).toBe(false);
    expect(withinGasBudget(0n, 1n, 0n)).toBe(false);
  });

  test("starts afresh at midnight UTC", () => {
    const late = new Date("2026-11-22T23:59:30.500Z");
    expect(utcDayStart(late).toISOString()).toBe("2026-11-22T00:00:00.000Z");
    expect(secondsUntilNextUtcDay(late)).toBe(30);
    expect(secondsUntilNextUtcDay(new Date("2026-11-23T00:00:00.000Z"))).toBe(86_400);
  });
});
