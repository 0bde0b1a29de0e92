import { BlockList, isIP } from "node:net";

/** Whether an address (the socket's peer, or an X-Forwarded-For entry) is one of our proxies. */
export type IsTrustedProxy = (address: string) => boolean;

/**
 * The client a request is charged to. Without trusted proxies it is the socket's peer: an
 * `X-Forwarded-For` header is only a claim, and honouring it would let anyone pick a fresh
 * address per request. With `trustedProxies` = N (up to N reverse proxies in front, each
 * appending the address it saw), the chain [...X-Forwarded-For, peer] is walked from the right
 * through at most N hops, each of which must be a trusted proxy's address (`isTrustedProxy`):
 * the client is the right-most address that is not one of ours. A client connecting to the port
 * directly is therefore charged as itself, whatever it writes in the header, and entries left of
 * the first untrusted one were written by the client and prove nothing.
 *
 * IPv6 clients are charged per /64, the block one subscriber usually gets, so that rotating
 * through a block buys nothing. IPv4-mapped IPv6 (`::ffff:1.2.3.4`) counts as the IPv4 address.
 *
 * @example
 * // One proxy (10.0.0.2, trusted) in front, which appended the address it saw:
 * clientAddress("10.0.0.2", "spoofed, 198.51.100.7", 1, isPrivate); // "198.51.100.7"
 * // A client reaching the port directly cannot pose as anyone:
 * clientAddress("203.0.113.9", "198.51.100.7", 1, isPrivate); // "203.0.113.9"
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trustedProxies: number,
  isTrustedProxy: IsTrustedProxy,
): string {
  // Read from the right, entry by entry (no array per request: every status poll comes here).
  let unread = trustedProxies > 0 && forwardedFor ? forwardedFor : "";
  let client = peer ?? "unknown";
  for (let hop = 0; hop < trustedProxies; hop++) {
    let next: string | undefined;
    while (next === undefined && unread !== "") {
      const comma = unread.lastIndexOf(",");
      const entry = unread.slice(comma + 1).trim();
      unread = comma < 0 ? "" : unread.slice(0, comma);
      if (entry !== "") next = entry;
    }
    if (next === undefined || !isTrustedProxy(client)) break;
    client = next;
  }
  return rateKey(client);
}

/** The verdicts remembered per trusted-proxy predicate: the peers a server sees are few. */
const PROXY_VERDICTS_KEPT = 1_024;

/**
 * A predicate over the proxies' addresses: each entry an IP address or a CIDR block, IPv4 or
 * IPv6 (`127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`). An IPv4 address written as IPv4-mapped
 * IPv6 (`::ffff:127.0.0.1`, as Node reports peers on a dual-stack socket) is judged as IPv4.
 * Throws on an entry that is neither.
 *
 * @example trustedProxyList(["127.0.0.1", "10.0.0.0/8"])("10.1.2.3") // true
 */
export function trustedProxyList(entries: readonly string[]): IsTrustedProxy {
  const list = new BlockList();
  for (const entry of entries) {
    const [network = "", prefix] = entry.trim().split("/");
    const family = isIP(network);
    if (family === 0) throw new Error(`not an IP address or CIDR block: ${entry}`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) list.addAddress(network, type);
    else {
      const bits = Number(prefix);
      if (!/^\d{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128))
        throw new Error(`not a CIDR prefix length: ${entry}`);
      list.addSubnet(network, bits, type);
    }
  }
  const judge = (address: string) => {
    const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
    const candidate = mapped ?? bare;
    const family = isIP(candidate);
    if (family === 0) return false;
    return list.check(candidate, family === 4 ? "ipv4" : "ipv6");
  };
  // Asked for the same peer (the proxy, or loopback) on every request; bounded, so a server
  // reached directly by many clients only forgets, never grows.
  const verdicts = new Map<string, boolean>();
  return (address) => {
    let verdict = verdicts.get(address);
    if (verdict === undefined) {
      verdict = judge(address);
      if (verdicts.size >= PROXY_VERDICTS_KEPT) verdicts.clear();
      verdicts.set(address, verdict);
    }
    return verdict;
  };
}

const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)";
const PLAIN_IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

/** The key an address is limited under: IPv4 as is, IPv6 by its /64 prefix. */
export function rateKey(address: string): string {
  // The common case, a plain dotted quad (as isIP accepts it: no leading zeros), as is.
  if (PLAIN_IPV4.test(address)) return address;
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
