import { expect, test } from "vitest";
import { formatSummary } from "./summary.ts";

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
