import { describe, expect, test } from "vitest";
import { blockNumberFromCheckpoint } from "./indexer.ts";

describe("blockNumberFromCheckpoint", () => {
  test("reads the block number out of Ponder's checkpoint string", () => {
    // timestamp 1795347075, chain 8453, block 57, then the transaction/event positions
    expect(
      blockNumberFromCheckpoint(
        "179534707500000000000084530000000000000057999999999999999999999999999999999",
      ),
    ).toBe(57n);
  });
});
