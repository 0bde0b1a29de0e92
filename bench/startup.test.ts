import { expect, test } from "vitest";
import { startWhyNot } from "./startup.ts";

const phases = (spawned: number, ready: number, detected: number) => ({
  phases: {
    modules_loaded: 600,
    children_spawned: spawned,
    api_answering: ready,
    ready,
    indexer_live: detected - 1000,
    indexer_ok: detected,
  },
});

test("a start row's reason is this run's phases: the supervisor, the API and worker, the indexer", () => {
  const why = startWhyNot([
    phases(1300, 3100, 5800),
    phases(1400, 3200, 6100),
    phases(1500, 3300, 5900),
  ]);
  const ready = why("warm start → ready, p50");
  expect(ready).toContain("spawned the API and the worker at 1.40 s");
  expect(ready).toContain("they served at 3.20 s (1.80 s of both loading");
  // The indexer is not on the way to `ready`.
  expect(ready).not.toContain("indexer");
  const detected = why("warm start → payments detected, p50");
  expect(detected).toContain(
    "detected payments 2.70 s later: 1.70 s until its Ponder indexed live",
  );
  expect(detected).toContain("then 1.00 s to catch up with the head");
  expect(why("cold start (new DATA_DIR)")).toContain("cold adds initdb");
  expect(startWhyNot([])("warm start → ready, p50")).toBe("no phases were logged");
});
