import { describe, expect, test } from "vitest";
import { childLogLine } from "./childLogLine.ts";

const now = new Date("2026-11-23T12:00:00.000Z");
const parsed = (line: string) => JSON.parse(childLogLine(line, "indexer", now));

describe("childLogLine", () => {
  test("passes our JSON lines on unchanged", () => {
    const line = '{"level":"info","component":"api","msg":"listening"}';
    expect(childLogLine(line, "api", now)).toBe(line);
  });

  test("wraps Ponder's plain lines with their level", () => {
    expect(parsed("19:49:21.437 WARN  Received SIGTERM")).toEqual({
      level: "warn",
      time: "2026-11-23T12:00:00.000Z",
      component: "indexer",
      msg: "Received SIGTERM",
    });
    expect(parsed("19:49:21.437 ERROR Failed to index block 5").level).toBe("error");
    expect(parsed("19:49:21.437 DEBUG Polled").level).toBe("debug");
  });

  test("wraps Node's warnings as warnings, and anything else as info", () => {
    expect(parsed("(node:22537) DeprecationWarning: Calling client.query() twice")).toMatchObject({
      level: "warn",
      msg: "DeprecationWarning: Calling client.query() twice",
    });
    expect(parsed("{not json")).toMatchObject({ level: "info", msg: "{not json" });
    expect(parsed("    at Client.query (pg/lib/client.js:780:7)").level).toBe("info");
  });
});
