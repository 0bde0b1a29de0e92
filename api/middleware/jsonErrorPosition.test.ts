import { describe, expect, test } from "vitest";
import { jsonErrorOffset, jsonNestingOffset, lineAndColumn } from "./jsonErrorPosition.ts";

describe("jsonErrorOffset", () => {
  test.each([
    '{"a":1}',
    "[]",
    '"x"',
    "-0.5e+3",
    "true",
    ' {"a": [1, {"b": null}], "c": "\\u00e9\\n"} ',
  ])("accepts %s", (text) => {
    expect(jsonErrorOffset(text)).toBe(-1);
    expect(() => JSON.parse(text)).not.toThrow();
  });

  test.each([
    ['{"a":1,}', 7],
    ["[1,,2]", 3],
    ['{"a" 1}', 5],
    ["{'a':1}", 1],
    ["01", 1],
    ['{"a":tru}', 5],
    ["", 0],
    ['{"a":"\\x"}', 7],
    ["[1] x", 4],
  ])("locates the error in %j at %i", (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
    expect(() => JSON.parse(text)).toThrow();
  });

  test("gives line and column", () => {
    const text = '{\n  "a": 1,\n  "b": [,]\n}';
    expect(lineAndColumn(text, jsonErrorOffset(text))).toEqual({ line: 3, column: 9 });
  });
});

describe("jsonNestingOffset", () => {
  test("finds where nesting first goes past the limit, ignoring brackets in strings", () => {
    expect(jsonNestingOffset('{"a":[[1]]}', 3)).toBe(-1);
    expect(jsonNestingOffset('{"a":[[1]]}', 2)).toBe(6);
    expect(jsonNestingOffset('["[[[[", "\\"[[["]', 1)).toBe(-1);
    expect(jsonNestingOffset("[]".repeat(1000), 1)).toBe(-1);
  });

  test("scans 100,000 levels without recursion", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(jsonNestingOffset(deep, 64)).toBe(64);
  });
});
