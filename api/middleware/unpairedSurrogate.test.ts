import { describe, expect, test } from "vitest";
import { findUnpairedSurrogate } from "./unpairedSurrogate.ts";

describe("findUnpairedSurrogate", () => {
  test("finds a lone high or low surrogate in values and keys, with its path", () => {
    expect(findUnpairedSurrogate(JSON.parse('{"a":[1,{"b":"x\\ud83dy"}]}'))).toEqual(["a", 1, "b"]);
    expect(findUnpairedSurrogate(JSON.parse('["\\udfff"]'))).toEqual([0]);
    expect(findUnpairedSurrogate(JSON.parse('{"k\\ud800":1}'))).toEqual(["k\ud800"]);
    expect(findUnpairedSurrogate("\ud800")).toEqual([]);
  });

  test("accepts well-formed text: pairs, escaped or not, and a literal backslash-u", () => {
    expect(findUnpairedSurrogate(JSON.parse('{"a":"\\ud83d\\ude80 🚀 \\\\ud800 é"}'))).toBeNull();
    expect(findUnpairedSurrogate([null, 1, true, {}, []])).toBeNull();
  });
});
