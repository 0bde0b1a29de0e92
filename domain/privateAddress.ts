import { BlockList, isIP } from "node:net";

/**
 * Every range a webhook must never reach from a server, from IANA's special-purpose registries:
 * loopback, private, shared (carrier-grade NAT), link-local (cloud metadata lives at
 * 169.254.169.254), documentation, benchmarking, multicast and reserved. IANA gives out IPv6
 * global unicast only from 2000::/3, so the rest is refused (`::`, loopback, IPv4-compatible and
 * -translated forms, unique-local, site-local, link-local, multicast), and within 2000::/3 the
 * IETF protocol block (Teredo, ORCHID…) and the documentation prefixes.
 *
 * BlockList judges an IPv4 address by the IPv6 rules too, as ::ffff:a.b.c.d, and an
 * IPv4-mapped address by the IPv4 rules: no IPv6 rule may cover ::ffff:0:0/96.
 */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv4");
}
// ::/3 but ::ffff:0:0/96, as two ranges (NAT64's 64:ff9b::/96 is judged before, by its IPv4).
NON_PUBLIC.addRange("::", "::fffe:ffff:ffff", "ipv6");
NON_PUBLIC.addRange("::1:0:0:0", "1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ipv6");
for (const [network, prefix] of [
  // in 2000::/3, the global unicast space: IETF protocols (Teredo, ORCHID…), documentation
  ["2001::", 23],
  ["2001:db8::", 32],
  ["3fff::", 20],
  // 4000::/2 and 8000::/1: reserved, unique-local, site-local, link-local, multicast
  ["4000::", 2],
  ["8000::", 1],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv6");
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted tail converted). */
function ipv6Groups(address: string): number[] {
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const [, prefix = "", a, b, c, d] = dotted ?? [];
  const group = (high?: string, low?: string) => (Number(high) * 256 + Number(low)).toString(16);
  const text = dotted ? `${prefix}${group(a, b)}:${group(c, d)}` : address;
  const [head = "", tail] = text.split("::");
  const parse = (part: string) => (part ? part.split(":").map((hex) => parseInt(hex, 16)) : []);
  if (tail === undefined) return parse(head);
  const [before, after] = [parse(head), parse(tail)];
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/**
 * The IPv4 address an IPv6 address stands for, where the network delivers it to that IPv4
 * address: IPv4-mapped (::ffff:0:0/96, what a dual-stack socket connects to), NAT64
 * (64:ff9b::/96) and 6to4 (2002::/16). Null for any other address.
 */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const ipv4 = (high = 0, low = 0) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zerosThen = (count: number) => g.slice(0, count).every((group) => group === 0);
  if (zerosThen(5) && g[5] === 0xffff) return ipv4(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((group) => group === 0))
    return ipv4(g[6], g[7]);
  if (g[0] === 0x2002) return ipv4(g[1], g[2]);
  return null;
}

/**
 * Whether an IP address is one a webhook must never reach from a server (see NON_PUBLIC). An
 * IPv6 address that carries an IPv4 address to its network (mapped, NAT64, 6to4) is judged by
 * that IPv4 address. Anything that is not an IP address, or is scoped to an interface
 * (`fe80::1%eth0`), is refused.
 *
 * @example isPrivateAddress("::ffff:7f00:1") // true: 127.0.0.1, as the URL parser writes it
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return NON_PUBLIC.check(address, "ipv4");
  if (family !== 6 || address.includes("%")) return true;
  const ipv4 = embeddedIpv4(address);
  return ipv4 !== null ? NON_PUBLIC.check(ipv4, "ipv4") : NON_PUBLIC.check(address, "ipv6");
}
