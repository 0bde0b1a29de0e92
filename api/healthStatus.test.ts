import { describe, expect, test } from "vitest";
import { overallStatus } from "./health.ts";

const up = { ok: true };

describe("overallStatus", () => {
  test("ok when every component is, starting when only a starting indexer is not", () => {
    const components = { database: up, chain: up, indexer: up, worker: up };
    expect(overallStatus(components)).toBe("ok");
    const starting = { ok: false, starting: true };
    expect(overallStatus({ ...components, indexer: starting })).toBe("starting");
  });

  test("degraded when an indexer that ran is down, or anything else is", () => {
    const components = { database: up, chain: up, indexer: up, worker: up };
    expect(overallStatus({ ...components, indexer: { ok: false } })).toBe("degraded");
    expect(overallStatus({ ...components, worker: { ok: false } })).toBe("degraded");
    const starting = { ok: false, starting: true };
    expect(overallStatus({ ...components, indexer: starting, worker: { ok: false } })).toBe(
      "degraded",
    );
  });
});
