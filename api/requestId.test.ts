import { describe, expect, test } from "vitest";
import { requestIdFrom } from "./requestId.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("requestIdFrom", () => {
  test("keeps a caller's sane token", () => {
    for (const id of ["req-7f3a", "a", "Root=1-5759e988:bd862e3f.1", "aGk+L3g=", "x".repeat(128)])
      expect(requestIdFrom(id)).toBe(id);
  });

  test("replaces a missing, empty, long or odd one with a fresh UUID", () => {
    const ids = [undefined, "", "x".repeat(129), "two words", "<script>", 'a"b', "a\\b", "é"].map(
      requestIdFrom,
    );
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
