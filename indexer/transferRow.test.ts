import { describe, expect, test } from "vitest";
import { type TransferEvent, transferRow } from "./transferRow.ts";

const deposit = "0x00000000000000000000000000000000000000aa";
const event = (from: string, to: string): TransferEvent => ({
  args: { from: from as `0x${string}`, to: to as `0x${string}`, value: 1_500_000n },
  block: { number: 12n, hash: "0xb10c", timestamp: 1_700_000_000n },
  transaction: { hash: "0x7a" },
  log: { logIndex: 3 },
});

describe("transferRow", () => {
  const deposits = new Set([deposit]);

  test("keeps a payment to a deposit address, matching case-insensitively", () => {
    const row = transferRow(
      event(
        "0x00000000000000000000000000000000000000BB",
        deposit.toUpperCase().replace("0X", "0x"),
      ),
      deposits,
    );
    expect(row).toEqual({
      id: "0x7a-3",
      blockNumber: 12n,
      blockHash: "0xb10c",
      timestamp: 1_700_000_000n,
      txHash: "0x7a",
      logIndex: 3,
      from: "0x00000000000000000000000000000000000000bb",
      to: deposit,
      value: 1_500_000n,
    });
  });

  test("keeps a transfer out of a deposit address (a sweep)", () => {
    expect(
      transferRow(event(deposit, "0x00000000000000000000000000000000000000cc"), deposits)?.from,
    ).toBe(deposit);
  });

  test("drops transfers that touch none of our addresses", () => {
    expect(
      transferRow(
        event(
          "0x00000000000000000000000000000000000000bb",
          "0x00000000000000000000000000000000000000cc",
        ),
        deposits,
      ),
    ).toBeNull();
  });
});
