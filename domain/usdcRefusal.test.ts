import { describe, expect, test } from "vitest";
import {
  type SignedTransferVerdict,
  signedTransferVerdict,
  USDC_REVERT,
  type UsdcRefusal,
  usdcRefusalOfReason,
} from "./usdcRefusal.ts";

describe("usdcRefusalOfReason: USDC's revert reason names the refusal", () => {
  const cases: [string, UsdcRefusal][] = [
    [USDC_REVERT.authorizationUsed, "authorization_used"],
    [USDC_REVERT.exceedsBalance, "insufficient_balance"],
    [USDC_REVERT.authorizationExpired, "expired"],
    [USDC_REVERT.authorizationNotYetValid, "not_yet_valid"],
    [USDC_REVERT.invalidSignature, "invalid_signature"],
    [USDC_REVERT.blacklisted, "blacklisted"],
    [USDC_REVERT.toZeroAddress, "unreceivable"],
    [USDC_REVERT.paused, "paused"],
  ];
  test.each(cases)("%s → %s", (reason, refusal) => {
    expect(usdcRefusalOfReason(reason)).toBe(refusal);
  });

  test("any other reason, none at all, or an inherited property name is another revert", () => {
    expect(usdcRefusalOfReason("FiatToken: mint amount exceeds minterAllowance")).toBe(
      "other_revert",
    );
    expect(usdcRefusalOfReason(undefined)).toBe("other_revert");
    expect(usdcRefusalOfReason("")).toBe("other_revert");
    expect(usdcRefusalOfReason("toString")).toBe("other_revert");
    // A reason is matched exactly, never by a part of it.
    expect(usdcRefusalOfReason(`${USDC_REVERT.blacklisted}!`)).toBe("other_revert");
  });
});

describe("signedTransferVerdict: what a refusal means for a sweep or a refund Remit signs", () => {
  const cases: [UsdcRefusal, SignedTransferVerdict][] = [
    ["blacklisted", "permanent"],
    ["unreceivable", "permanent"],
    ["invalid_signature", "permanent"],
    ["authorization_used", "done"],
    ["insufficient_balance", "stale"],
    ["expired", "transient"],
    ["not_yet_valid", "transient"],
    ["paused", "transient"],
    ["other_revert", "transient"],
  ];
  test.each(cases)("%s → %s", (refusal, verdict) => {
    expect(signedTransferVerdict(refusal)).toBe(verdict);
  });
});
