import { isIP } from "node:net";

/**
 * The client a request is charged to. Without trusted proxies it is the socket's peer: an
 * `X-Forwarded-For` header is only a claim, and honouring it would let anyone pick a fresh
 * address per request. With `trustedProxies` = N (N reverse proxies in front, each appending
 * the address it saw), it is the Nth entry from the right of [...X-Forwarded-For, peer]:
 * entries further left were written by the client and prove nothing.
 *
 * IPv6 clients are charged per /64, the block one subscriber usually gets, so that rotating
 * through a block buys nothing. IPv4-mapped IPv6 (`::ffff:1.2.3.4`) counts as the IPv4 address.
 *
 * @example
 * // One proxy (10.0.0.2) in front, which appended the address it saw:
 * clientAddress("10.0.0.2", "spoofed, 198.51.100.7", 1); // "198.51.100.7"
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trustedProxies: number,
): string {
  const chain = [
    ...(trustedProxies > 0 && forwardedFor ? forwardedFor.split(",").map((s) => s.trim()) : []),
    peer ?? "unknown",
  ];
  const chosen = chain[Math.max(0, chain.length - 1 - trustedProxies)] ?? "unknown";
  return rateKey(chosen);
}

/** The key an address is limited under: IPv4 as is, IPv6 by its /64 prefix. */
export function rateKey(address: string): string {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped?.[1]) return mapped[1];
  const family = isIP(bare);
  if (family === 4) return bare;
  if (family !== 6) return bare.slice(0, 64) || "unknown";
  const [head = "", tail = ""] = bare.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = bare.includes("::") && tail ? tail.split(":") : [];
  const groups = bare.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
