import { describe, expect, test } from "vitest";
import { clientAddress, rateKey, trustedProxyList } from "./clientAddress.ts";

/** The proxies of these examples: a private network in front of the API. */
const ours = trustedProxyList(["10.0.0.0/8"]);

describe("clientAddress", () => {
  test("without trusted proxies the peer is the client, whatever X-Forwarded-For claims", () => {
    expect(clientAddress("203.0.113.9", "198.51.100.7", 0, ours)).toBe("203.0.113.9");
    expect(clientAddress("203.0.113.9", undefined, 0, ours)).toBe("203.0.113.9");
  });

  test("with N trusted proxies, the Nth entry from the right of the chain", () => {
    expect(clientAddress("10.0.0.2", "spoofed, 198.51.100.7", 1, ours)).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.3", "1.1.1.1, 198.51.100.7, 10.0.0.2", 2, ours)).toBe(
      "198.51.100.7",
    );
  });

  test("a chain shorter than the proxies claimed falls back to its leftmost entry", () => {
    expect(clientAddress("10.0.0.2", undefined, 1, ours)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", "198.51.100.7", 3, ours)).toBe("198.51.100.7");
  });

  test("only a trusted proxy's X-Forwarded-For counts: a direct client is charged as itself", () => {
    expect(clientAddress("203.0.113.9", "198.51.100.7", 1, ours)).toBe("203.0.113.9");
    expect(clientAddress("203.0.113.9", "10.0.0.2, 198.51.100.7", 2, ours)).toBe("203.0.113.9");
    // The first untrusted address from the right ends the walk, whatever N allows.
    expect(clientAddress("10.0.0.3", "1.1.1.1, 198.51.100.7", 2, ours)).toBe("198.51.100.7");
  });

  test("a missing peer is one shared key, never an exception", () => {
    expect(clientAddress(undefined, undefined, 0, ours)).toBe("unknown");
  });
});

describe("clientAddress, read from the right without an array", () => {
  test("empty entries and spaces are skipped as before, wherever they are", () => {
    expect(clientAddress("10.0.0.2", " 198.51.100.7 , ,", 1, ours)).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.3", "198.51.100.7,,10.0.0.2", 2, ours)).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.2", " , ", 1, ours)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", "", 1, ours)).toBe("10.0.0.2");
  });
});

describe("trustedProxyList", () => {
  test("gives the same verdict when asked again, past its memory of 1,024 addresses", () => {
    const list = trustedProxyList(["10.0.0.0/8"]);
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 1_500; i++) {
        expect(list(`10.0.${i >> 8}.${i & 255}`)).toBe(true);
        expect(list(`11.0.${i >> 8}.${i & 255}`)).toBe(false);
      }
  });

  test("addresses and CIDR blocks, IPv4 and IPv6, IPv4-mapped peers as IPv4", () => {
    const trusted = trustedProxyList(["127.0.0.0/8", "::1", "192.0.2.10", "fd00::/8"]);
    expect(trusted("127.0.0.1")).toBe(true);
    expect(trusted("::ffff:127.0.0.1")).toBe(true);
    expect(trusted("::1")).toBe(true);
    expect(trusted("192.0.2.10")).toBe(true);
    expect(trusted("192.0.2.11")).toBe(false);
    expect(trusted("fd12::1")).toBe(true);
    expect(trusted("2001:db8::1")).toBe(false);
    expect(trusted("not an address")).toBe(false);
  });

  test("refuses entries that are not addresses or blocks", () => {
    expect(() => trustedProxyList(["localhost"])).toThrow(/not an IP address/);
    expect(() => trustedProxyList(["10.0.0.0/33"])).toThrow(/not a CIDR prefix/);
  });
});

describe("rateKey", () => {
  test("a dotted quad only as isIP reads it: leading zeros and out-of-range octets are not IPv4", () => {
    expect(rateKey("255.255.255.255")).toBe("255.255.255.255");
    expect(rateKey("0.0.0.0")).toBe("0.0.0.0");
    expect(rateKey("01.2.3.4")).toBe("01.2.3.4");
    expect(rateKey("256.1.1.1")).toBe("256.1.1.1");
    expect(rateKey("[::ffff:1.2.3.4]")).toBe("1.2.3.4");
  });

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
