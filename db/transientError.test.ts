import { describe, expect, test } from "vitest";
import { isTransientDatabaseError } from "./transientError.ts";

const withCode = (code: string) => Object.assign(new Error("x"), { code });

describe("isTransientDatabaseError", () => {
  test.each([
    ["too many connections", withCode("53300")],
    ["statement timeout", withCode("57014")],
    ["admin shutdown", withCode("57P01")],
    ["starting up", withCode("57P03")],
    ["connection failure", withCode("08006")],
    ["lock timeout", withCode("55P03")],
    ["deadlock", withCode("40P01")],
    ["server down", withCode("ECONNREFUSED")],
    ["pool timeout", new Error("timeout exceeded when trying to connect")],
    ["connection lost", new Error("Connection terminated unexpectedly")],
    ["wrapped", new Error("outer", { cause: withCode("ECONNRESET") })],
  ])("%s is transient", (_, error) => {
    expect(isTransientDatabaseError(error)).toBe(true);
  });

  test.each([
    ["unique violation", withCode("23505")],
    ["syntax error", withCode("42601")],
    ["a plain bug", new TypeError("cannot read properties of undefined")],
    ["not an error", "53300"],
    ["nothing", undefined],
  ])("%s is not", (_, error) => {
    expect(isTransientDatabaseError(error)).toBe(false);
  });
});
