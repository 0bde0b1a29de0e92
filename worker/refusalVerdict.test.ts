import { describe, expect, it } from "vitest";
import { Refusal, RetryLaterError } from "../app/refusal.ts";
import { permanentRefusal, VERDICT_OF } from "./refusalVerdict.ts";

describe("permanentRefusal", () => {
  it("gives up on what the same input will meet again", () => {
    const refused = new Refusal("conflict", "payout_wallet_removed", "no payout wallet");
    expect(permanentRefusal(refused)).toBe(refused);
    expect(permanentRefusal(new Refusal("invalid", "validation_failed", "bad"))).toBeDefined();
  });

  it("retries what time or an operator clears, and every fault", () => {
    expect(permanentRefusal(new RetryLaterError("rate_limited", "rate_limited", "slow", 5))).toBe(
      undefined,
    );
    expect(permanentRefusal(new Refusal("unavailable", "busy", "busy"))).toBe(undefined);
    expect(permanentRefusal(new Refusal("internal", "wallet_unavailable", "none"))).toBe(undefined);
    expect(permanentRefusal(new Error("connection reset"))).toBe(undefined);
  });

  it("retries exactly the kinds the API answers with 429 or a 5xx", () => {
    const retryable = Object.entries(VERDICT_OF)
      .filter(([, verdict]) => verdict === "retryable")
      .map(([kind]) => kind)
      .sort();
    expect(retryable).toEqual(["internal", "rate_limited", "unavailable"]);
  });
});
