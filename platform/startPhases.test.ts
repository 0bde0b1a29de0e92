import { describe, expect, test } from "vitest";
import { StartPhases } from "./startPhases.ts";

describe("StartPhases", () => {
  test("a phase keeps its first finish", async () => {
    const phases = new StartPhases();
    phases.mark("database");
    const first = phases.toJSON().database;
    await new Promise((resolve) => setTimeout(resolve, 5));
    phases.mark("database");
    expect(phases.toJSON().database).toBe(first);
  });

  test("each component is recorded when /health first reports it ok", () => {
    const phases = new StartPhases();
    phases.markHealth({
      status: "starting",
      components: { database: { ok: true }, indexer: { ok: false, starting: true } },
    });
    expect(Object.keys(phases.toJSON()).sort()).toEqual(["api_answering", "database_ok"]);
    // An answer that failed says nothing of the indexer's start.
    phases.markHealth({
      status: "degraded",
      components: { database: { ok: true }, indexer: { ok: false, error: "timed out" } },
    });
    expect(Object.keys(phases.toJSON()).sort()).toEqual(["api_answering", "database_ok"]);
    // Live, catching up with the head.
    phases.markHealth({
      status: "degraded",
      components: {
        database: { ok: true },
        indexer: { ok: false, error: "behind", indexed_block: 10, lag_blocks: 30 },
      },
    });
    expect(Object.keys(phases.toJSON()).sort()).toEqual([
      "api_answering",
      "database_ok",
      "indexer_live",
    ]);
    phases.markHealth({
      status: "ok",
      components: { database: { ok: true }, indexer: { ok: true } },
    });
    expect(Object.keys(phases.toJSON()).sort()).toEqual([
      "api_answering",
      "database_ok",
      "indexer_live",
      "indexer_ok",
    ]);
  });

  test("an answer that is not the health report only says the API answers", () => {
    const phases = new StartPhases();
    phases.markHealth("Service Unavailable");
    phases.markHealth(null);
    expect(Object.keys(phases.toJSON())).toEqual(["api_answering"]);
  });
});
