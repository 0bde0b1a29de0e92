import { describe, expect, it } from "vitest";
import { compareInterleaved, pairedVerdict } from "./interleaved.ts";

describe("pairedVerdict", () => {
  it("takes the median of the per-round differences, which one disturbed round cannot move", () => {
    // Round 3 was hit by load from elsewhere on both sides; round 4 only on the baseline.
    const verdict = pairedVerdict([10, 10, 40, 30, 10], [12, 12, 42, 12, 12]);
    expect(verdict.extraUs).toBe(2);
    expect(verdict.baselineUs).toBe(10);
    expect(verdict.candidateUs).toBe(12);
    expect(verdict.ratio).toBeCloseTo(10 / 12);
  });

  it("refuses rounds that are not paired", () => {
    expect(() => pairedVerdict([1, 2], [1])).toThrow(RangeError);
  });
});

describe("compareInterleaved", () => {
  it("finds a candidate that does more work per request slower than its baseline", async () => {
    const requests = [new Request("http://x/a")];
    const cheap = () => new Response("ok");
    const dear = () => {
      let x = 0;
      for (let i = 0; i < 20_000; i++) x += Math.sqrt(i);
      return new Response(String(x > 0));
    };
    const verdict = await compareInterleaved(cheap, dear, requests, {
      rounds: 5,
      batchSize: 50,
      warmup: 1,
    });
    expect(verdict.extraUs).toBeGreaterThan(0);
    expect(verdict.ratio).toBeLessThan(1);
  });
});
