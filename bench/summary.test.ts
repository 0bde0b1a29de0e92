import { expect, test } from "vitest";
import { formatHeadlines, formatSummary, HEADLINES } from "./summary.ts";

test("the closing table aligns every column", () => {
  const table = formatSummary([
    { measure: "start-up", result: "4.6 s", baseline: "76 ms", ratio: "60×", goal: "< 10 s" },
    {
      measure: "status endpoint",
      result: "20,025 req/s",
      baseline: "23,878 req/s",
      ratio: "84 %",
      goal: "≥ 60 %",
    },
  ]);
  const lines = table.split("\n");
  expect(lines).toHaveLength(4);
  expect(lines[0]).toMatch(/^measure\s+result\s+baseline \(same run\)\s+ratio\s+goal\s+met$/);
  // Every column starts at the same offset on every line.
  const resultColumn = lines[0]?.indexOf("result");
  expect(lines[2]?.indexOf("4.6 s")).toBe(resultColumn);
  expect(lines[3]?.indexOf("20,025 req/s")).toBe(resultColumn);
});

test("a goal not met is marked and explained under the table", () => {
  const table = formatSummary([
    { measure: "a", result: "1", baseline: "1", ratio: "1×", goal: "< 2", met: true },
    {
      measure: "b",
      result: "9",
      baseline: "1",
      ratio: "9×",
      goal: "< 2",
      met: false,
      whyNot: "two cores are shared; four would meet it",
    },
  ]);
  const lines = table.split("\n");
  expect(lines[2]).toMatch(/\syes$/);
  expect(lines[3]).toMatch(/\sNO$/);
  expect(table).toContain("Goals not met");
  expect(table).toContain("- b: two cores are shared; four would meet it");
});

test("the headline table lists every headline goal in order, met or not, measured or not", () => {
  const table = formatHeadlines(
    [
      {
        measure: "whole stack idle memory",
        result: "380 MB",
        baseline: "bare node 24 MB",
        ratio: "16×",
        goal: "< 400 MB",
        met: true,
        headline: "whole stack idle memory",
      },
      {
        measure: "fresh clone: warm start",
        result: "p50 3.4 s",
        baseline: "",
        ratio: "",
        goal: "< 3 s",
        met: false,
        headline: "warm start → ready, p50",
      },
      {
        measure: "work tree: warm start",
        result: "p50 2.0 s",
        baseline: "",
        ratio: "",
        goal: "< 3 s",
        met: true,
        headline: "warm start → ready, p50",
      },
    ],
    "machine: CPU work unit 50.0 ms",
  );
  const lines = table.split("\n");
  // Header, rule, one line per headline, a blank line, the machine.
  expect(lines).toHaveLength(2 + HEADLINES.length + 2);
  expect(lines[2]).toMatch(/^warm start → ready, p50\s+p50 3\.4 s\s+< 3 s\s+not met$/);
  expect(lines[3]).toMatch(/^warm start → payments detected, p50\s+not measured in this run$/);
  expect(lines[4]).toMatch(/^cold start \(new DATA_DIR\)\s+not measured in this run$/);
  expect(lines[5]).toMatch(/^whole stack idle memory\s+380 MB\s+< 400 MB\s+met$/);
  expect(lines.at(-1)).toBe("machine: CPU work unit 50.0 ms");
});
