import { describe, expect, test } from "vitest";
import { clientAddress, rateKey } from "./clientAddress.ts";

describe("clientAddress", () => {
  test("without trusted proxies the peer is the client, whatever X-Forwarded-For claims", () => {
    expect(clientAddress("203.0.113.9", "198.51.100.7", 0)).toBe("203.0.113.9");
    expect(clientAddress("203.0.113.9", undefined, 0)).toBe("203.0.113.9");
  });

  test("with N trusted proxies, the Nth entry from the right of the chain", () => {
    expect(clientAddress("10.0.0.2", "spoofed, 198.51.100.7", 1)).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.3", "1.1.1.1, 198.51.100.7, 10.0.0.2", 2)).toBe("198.51.100.7");
  });

  test("a chain shorter than the proxies claimed falls back to its leftmost entry", () => {
    expect(clientAddress("10.0.0.2", undefined, 1)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", "198.51.100.7", 3)).toBe("198.51.100.7");
  });

  test("a missing peer is one shared key, never an exception", () => {
    expect(clientAddress(undefined, undefined, 0)).toBe("unknown");
  });
});

describe("rateKey", () => {
  test("IPv4 as is, IPv4-mapped IPv6 as IPv4", () => {
    expect(rateKey("192.0.2.1")).toBe("192.0.2.1");
    expect(rateKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
  });

  test("IPv6 by /64, whatever its spelling", () => {
    const key = "2001:db8:0:1::/64";
    expect(rateKey("2001:db8:0:1::1")).toBe(key);
    expect(rateKey("2001:0db8:0000:0001:ffff:ffff:ffff:ffff")).toBe(key);
    expect(rateKey("[2001:db8:0:1:aaaa::]")).toBe(key);
    expect(rateKey("2001:db8:0:2::1")).not.toBe(key);
    expect(rateKey("::1")).toBe("0:0:0:0::/64");
  });

  test("anything else is kept, truncated", () => {
    expect(rateKey("x".repeat(100))).toHaveLength(64);
  });
});
