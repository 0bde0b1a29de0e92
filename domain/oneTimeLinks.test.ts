import { describe, expect, test } from "vitest";
import { clientHashOf, decideOneTimeLink } from "./oneTimeLinks.ts";

describe("decideOneTimeLink", () => {
  const state = { sentToAddress: 0, sentForClient: 0, overCapSentRecently: false, liveLink: true };

  test("under both caps: a new link", () => {
    expect(decideOneTimeLink(state)).toBe("new");
    expect(decideOneTimeLink({ ...state, sentToAddress: 4, sentForClient: 2 })).toBe("new");
  });

  test("one client's cap does not stop another client", () => {
    expect(decideOneTimeLink({ ...state, sentToAddress: 3, sentForClient: 3 })).toBe("resend");
    expect(decideOneTimeLink({ ...state, sentToAddress: 3, sentForClient: 0 })).toBe("new");
  });

  test("past the address's cap: the live link again, a new one when none, then nothing for a while", () => {
    const over = { ...state, sentToAddress: 5 };
    expect(decideOneTimeLink(over)).toBe("resend");
    expect(decideOneTimeLink({ ...over, liveLink: false })).toBe("new_over_cap");
    expect(decideOneTimeLink({ ...over, overCapSentRecently: true })).toBe("withheld");
  });

  test("the client's hash is keyed: another key, another hash", () => {
    const a = Buffer.alloc(32, 1);
    const b = Buffer.alloc(32, 2);
    expect(clientHashOf("198.51.100.7", a)).toMatch(/^[0-9a-f]{64}$/);
    expect(clientHashOf("198.51.100.7", a)).toBe(clientHashOf("198.51.100.7", a));
    expect(clientHashOf("198.51.100.7", a)).not.toBe(clientHashOf("198.51.100.7", b));
    expect(clientHashOf("198.51.100.7", a)).not.toBe(clientHashOf("198.51.100.8", a));
  });
});
