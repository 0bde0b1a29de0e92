import { describe, expect, test } from "vitest";
import { prettyLogLine, resolveLogFormat } from "./logFormat.ts";

describe("the log format", () => {
  test("a terminal gets readable lines, anything else JSON; LOG_FORMAT overrides both", () => {
    expect(resolveLogFormat(undefined, true)).toBe("pretty");
    expect(resolveLogFormat(undefined, false)).toBe("json");
    expect(resolveLogFormat("", true)).toBe("pretty");
    expect(resolveLogFormat("json", true)).toBe("json");
    expect(resolveLogFormat("pretty", false)).toBe("pretty");
  });

  test("a JSON line reads as time, level, component, message, then its fields", () => {
    expect(
      prettyLogLine(
        `${JSON.stringify({
          level: "info",
          time: "2026-05-01T14:03:09.123Z",
          component: "remit",
          api: "http://localhost:3000",
          phases: { ready: 21 },
          msg: "ready in 23.12s",
          note: "two words",
        })}\n`,
      ),
    ).toBe(
      '14:03:09.123 INFO  remit: ready in 23.12s api=http://localhost:3000 phases={"ready":21} note="two words"',
    );
    expect(
      prettyLogLine('{"level":"error","time":"2026-05-01T00:00:00.000Z","msg":"boom","n":1}'),
    ).toBe("00:00:00.000 ERROR boom n=1");
  });

  test("a line that is not a JSON object passes unchanged", () => {
    expect(prettyLogLine("plain text")).toBe("plain text");
    expect(prettyLogLine("[1,2]")).toBe("[1,2]");
    expect(prettyLogLine("{broken")).toBe("{broken");
  });
});
