import { describe, expect, test } from "vitest";
import {
  confirmationsOf,
  describeTransaction,
  type LookupFacts,
  type OurTransfer,
} from "./transactionLookup.ts";

const invoiceTransfer = (overrides: Partial<OurTransfer> = {}): OurTransfer => ({
  id: `0x${"a".repeat(64)}-0`,
  value: 3_000_000n,
  blockNumber: 100n,
  owner: { kind: "invoice", invoiceNumber: "INV-0007", slug: "inv7slug" },
  counted: false,
  ...overrides,
});
const facts = (overrides: Partial<LookupFacts>): LookupFacts => ({
  ours: [],
  head: 100n,
  required: 3,
  chain: null,
  ...overrides,
});

describe("describeTransaction", () => {
  test.each([
    ["unavailable", { kind: "unavailable" }, "unavailable"],
    ["not found", { kind: "not_found" }, "not_found"],
    ["pending", { kind: "pending" }, "pending"],
    ["reverted", { kind: "mined", success: false, blockNumber: 9n, usdcTransfers: 0 }, "failed"],
    ["no USDC", { kind: "mined", success: true, blockNumber: 9n, usdcTransfers: 0 }, "not_usdc"],
    ["USDC", { kind: "mined", success: true, blockNumber: 9n, usdcTransfers: 2 }, "not_ours"],
  ] as const)("nothing of ours, chain says %s → %s", (_name, chain, state) => {
    const answer = describeTransaction(facts({ chain }));
    expect(answer.state).toBe(state);
    expect(answer.transfers).toEqual([]);
    expect(answer.message.length).toBeGreaterThan(20);
  });

  test("the index unanswered and the chain not asked is unavailable, never a guess", () => {
    expect(describeTransaction(facts({})).state).toBe("unavailable");
  });

  test("a payment waiting for confirmations: 1 of 3, the invoice named by number only", () => {
    const answer = describeTransaction(facts({ ours: [invoiceTransfer()] }));
    expect(answer.state).toBe("confirming");
    expect(answer.transfers).toEqual([
      {
        amount: "3.00",
        to_kind: "invoice",
        invoice_number: "INV-0007",
        confirmations: 1,
        required_confirmations: 3,
        counted: false,
      },
    ]);
    expect(JSON.stringify(answer)).not.toContain("inv7slug");
  });

  test("counted once every payment of ours is counted", () => {
    const counted = invoiceTransfer({ counted: true, blockNumber: 90n });
    expect(describeTransaction(facts({ ours: [counted] })).state).toBe("counted");
    const another = invoiceTransfer({ id: `0x${"a".repeat(64)}-1` });
    expect(describeTransaction(facts({ ours: [counted, another] })).state).toBe("confirming");
  });

  test("a link is never named; a caller naming its slug learns whether it was this one", () => {
    const link = invoiceTransfer({ owner: { kind: "link", slug: "shopslug" }, counted: true });
    const anonymous = describeTransaction(facts({ ours: [link] }));
    expect(anonymous.transfers[0]).toEqual(
      expect.objectContaining({ to_kind: "link", counted: true }),
    );
    expect(JSON.stringify(anonymous)).not.toContain("shopslug");
    expect(anonymous.transfers[0]).not.toHaveProperty("to_this");
    expect(
      describeTransaction(facts({ ours: [link], slug: "shopslug" })).transfers[0]?.to_this,
    ).toBe(true);
    expect(describeTransaction(facts({ ours: [link], slug: "other" })).transfers[0]?.to_this).toBe(
      false,
    );
  });
});

describe("confirmationsOf", () => {
  test.each([
    [100n, 100n, 1],
    [100n, 102n, 3],
    [100n, 99n, 0], // an index behind the chain's block: none yet
    [100n, null, 0],
  ] as const)("block %s, head %s → %s", (block, head, n) => {
    expect(confirmationsOf(block, head)).toBe(n);
  });
});
