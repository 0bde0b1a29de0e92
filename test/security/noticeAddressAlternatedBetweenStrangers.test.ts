import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { NOTICE_VERIFICATIONS_PER_ADDRESS_PER_HOUR } from "../../domain/emailBudget.ts";
import { claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { csrfOf, postForm, signInByFetch } from "../dashboard/dashboard.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";

/**
 * The attack: a merchant's notice address set to one stranger's address, then another's, back
 * and forth: each change emailed a verification link, with no cap (claim and sign-in links are
 * capped). Now at most NOTICE_VERIFICATIONS_PER_ADDRESS_PER_HOUR links an hour go to one address,
 * whichever accounts ask, and each counts against the merchant's budget of email to others; past
 * either the change is a 429 and nothing is changed or sent.
 */
describe("the notice address alternated between two strangers' addresses", () => {
  let stack: TestStack;
  let merchant: Merchant;
  let accomplice: Merchant;

  beforeAll(async () => {
    stack = await startStack({ worker: true });
    [merchant, accomplice] = await Promise.all([
      claimedMerchant(stack.db),
      claimedMerchant(stack.db),
    ]);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** The dashboard's settings form (the notice address is set there only), as `as`. */
  const signedIn = async (as: Merchant) => {
    const { cookie } = await signInByFetch(stack, as.email);
    const csrf = await csrfOf(stack, cookie, "/dashboard/settings");
    return (address: string) =>
      postForm(
        stack,
        "/dashboard/settings",
        { _csrf: csrf, notification_email: address },
        { cookie },
      );
  };
  const linksTo = async (address: string) =>
    (
      await stack.db
        .selectFrom("app.emails")
        .select("id")
        .where("kind", "=", "notification_email_verification")
        .where("recipient", "=", address)
        .execute()
    ).length;

  test("20 changes alternating, from two accounts: each address gets the cap of links, past it 429", async () => {
    const victims = [`a-${randomUUID()}@example.com`, `b-${randomUUID()}@example.com`];
    const [mine, theirs] = await Promise.all([signedIn(merchant), signedIn(accomplice)]);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const response = await (i % 4 < 2 ? mine : theirs)(victims[i % 2] as string);
      statuses.push(response.status);
      if (response.status === 429)
        expect(await response.text()).toContain("verification links an hour go to one address");
    }
    // A refused change leaves the pending address as it was, so some later posts change
    // nothing (and send nothing): every answer is a redirect or a 429, and no address gets more
    // than the cap.
    expect(
      statuses.every((s) => s === 303 || s === 429),
      JSON.stringify(statuses),
    ).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
    for (const victim of victims)
      expect(await linksTo(victim)).toBe(NOTICE_VERIFICATIONS_PER_ADDRESS_PER_HOUR);
  });
});
