import { describe, expect, test } from "vitest";
import { RerunRows } from "./rerunRows.ts";

// Checkpoints as Ponder's: fixed-width decimal strings, ordered as the chain.
const at = (n: number) => String(n).padStart(8, "0");

/** Handles an event at each checkpoint in turn, each giving its one row. */
const handleAll = (rows: RerunRows, events: [id: string, checkpoint: number][]) => {
  for (const [id, checkpoint] of events) {
    rows.handling(at(checkpoint));
    rows.give([id], at(checkpoint));
  }
};

describe("RerunRows", () => {
  test("rows go through the cache while the events move forward", () => {
    const rows = new RerunRows();
    rows.handling(at(1));
    expect(rows.give(["a"], at(1))).toBe(false);
    rows.handling(at(2));
    // A row stored again later (a held catch-up row) is no rerun: the cache answers.
    expect(rows.give(["a", "b"], at(2))).toBe(false);
  });

  test("an attempt run again writes its rows past the cache, once each", () => {
    const rows = new RerunRows();
    handleAll(rows, [
      ["committed", 1],
      ["a", 5],
      ["caught-up", 6],
    ]);
    // Ponder runs the transaction that began at 5 again (its COMMIT failed).
    rows.handling(at(5));
    expect(rows.give(["a"], at(5))).toBe(true);
    rows.handling(at(6));
    expect(rows.give(["caught-up"], at(6))).toBe(true);
    // Written again: the cache was cleared by that write; nothing left to force.
    expect(rows.give(["a"], at(6))).toBe(false);
    // A row of a committed transaction before the rerun is not forced.
    expect(rows.give(["committed"], at(6))).toBe(false);
  });

  test("a transaction that fails twice is forced both times", () => {
    const rows = new RerunRows();
    rows.handling(at(3));
    rows.give(["a"], at(3));
    rows.handling(at(3));
    expect(rows.give(["a"], at(3))).toBe(true);
    rows.handling(at(3));
    expect(rows.give(["a"], at(3))).toBe(true);
  });

  test("keeps the newest `limit` rows", () => {
    const rows = new RerunRows(2);
    handleAll(rows, [
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
    rows.handling(at(1));
    expect(rows.give(["a"], at(1))).toBe(false); // forgotten: older than the newest two
    expect(rows.give(["b"], at(2))).toBe(true);
  });
});
