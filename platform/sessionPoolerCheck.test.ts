import { describe, expect, test } from "vitest";
import { sharesSessions, transactionPoolerMessage } from "./sessionPoolerCheck.ts";

describe("sharesSessions: does a connection keep a server session of its own?", () => {
  test("directly or in session mode: A keeps its backend, B has another", () => {
    expect(sharesSessions({ first: 101, other: 102, again: 101 })).toBe(false);
  });
  test("transaction mode: B got the backend A let go of, and A moved to another", () => {
    expect(sharesSessions({ first: 101, other: 101, again: 102 })).toBe(true);
  });
  test("either sign alone is enough", () => {
    expect(sharesSessions({ first: 101, other: 101, again: 101 })).toBe(true);
    expect(sharesSessions({ first: 101, other: 102, again: 103 })).toBe(true);
  });
  test("the refusal names the setting, the cause and the fix", () => {
    const message = transactionPoolerMessage("MIGRATION_DATABASE_URL");
    expect(message).toMatch(/^MIGRATION_DATABASE_URL reaches Postgres through a pooler/);
    expect(message).toContain("LISTEN/NOTIFY");
    expect(message).toContain("session advisory locks");
    expect(message).toContain("pool_mode = session");
  });
});
