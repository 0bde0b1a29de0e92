import { describe, expect, test } from "vitest";
import { findLostTransfers, LOST_TRANSFER_WAIT_MS, lostWaitIsOver } from "./lostTransfers.ts";
import type { IndexedTransfer } from "./paymentState.ts";

const indexed = (id: string): IndexedTransfer => ({
  id,
  txHash: id.split("-")[0] as string,
  from: "0xpayer",
  value: 1n,
  blockNumber: 1n,
  paidAt: new Date(0),
});

describe("findLostTransfers", () => {
  test("the same transaction at another log index is re-mined, not lost", () => {
    expect(
      findLostTransfers(
        ["0xa-0", "0xb-2"],
        [indexed("0xa-1"), indexed("0xb-2")],
        ["0xa-1", "0xb-2"],
      ),
    ).toEqual({
      remined: ["0xa-0"],
      unconfirmed: [],
      missing: [],
    });
  });
  test("indexed again but not confirmed yet: unconfirmed", () => {
    expect(findLostTransfers(["0xa-0"], [indexed("0xa-4")], [])).toEqual({
      remined: [],
      unconfirmed: ["0xa-0"],
      missing: [],
    });
  });
  test("gone from the index: missing (the chain decides)", () => {
    expect(findLostTransfers(["0xa-0", "0xb-0"], [indexed("0xb-0")], ["0xb-0"])).toEqual({
      remined: [],
      unconfirmed: [],
      missing: ["0xa-0"],
    });
  });
  test("transaction hashes match whatever their case", () => {
    expect(findLostTransfers(["0xAB-0"], [indexed("0xab-1")], ["0xab-1"]).remined).toEqual([
      "0xAB-0",
    ]);
  });
  test("nothing lost", () => {
    expect(findLostTransfers(["0xa-0"], [indexed("0xa-0")], ["0xa-0"])).toEqual({
      remined: [],
      unconfirmed: [],
      missing: [],
    });
  });
});

describe("lostWaitIsOver", () => {
  const since = new Date("2026-01-01T00:00:00Z");
  test("waits up to LOST_TRANSFER_WAIT_MS, then stops waiting", () => {
    expect(lostWaitIsOver(since, new Date(since.getTime() + LOST_TRANSFER_WAIT_MS - 1))).toBe(
      false,
    );
    expect(lostWaitIsOver(since, new Date(since.getTime() + LOST_TRANSFER_WAIT_MS))).toBe(true);
  });
});
