import { describe, expect, test } from "vitest";
import { jsonErrorOffset, lineAndColumn } from "./jsonErrorPosition.ts";

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
