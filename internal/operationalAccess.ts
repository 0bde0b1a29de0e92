import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

/** What an operational endpoint is told about a request: who connected, and its headers. */
export type RequestSource = {
  /** The socket's peer address, as Node reports it (`::ffff:127.0.0.1` on dual-stack sockets). */
  peer: string | undefined;
  header: (name: string) => string | undefined;
};

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (isIP(bare) === 4) return bare.startsWith("127.");
  if (isIP(bare) !== 6) return false;
  // The URL parser writes IPv6 canonically: `::1`, and IPv4-mapped as `::ffff:7f00:1`.
  const canonical = new URL(`http://[${bare}]`).hostname;
  return canonical === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}

/** A Host (or an Origin's host) naming this machine: `localhost`, `*.localhost`, a loopback IP. */
export function isLoopbackHost(host: string): boolean {
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  if (!name) return false;
  const lower = name.toLowerCase();
  return lower === "localhost" || lower.endsWith(".localhost") || isLoopbackAddress(lower);
}

/** Headers a reverse proxy adds: a request carrying one came from elsewhere, through it. */
const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"];

/**
 * Whether a request comes from this machine itself, and only from it: the socket's peer is
 * loopback, no reverse proxy forwarded it (a proxy on this host connects from loopback too), and
 * its Host and Origin name this machine, so a web page a browser here loads from elsewhere (a
 * DNS-rebinding or cross-site request) is not local either.
 */
export function isLocalRequest(request: RequestSource): boolean {
  if (!isLoopbackAddress(request.peer)) return false;
  if (FORWARDING_HEADERS.some((name) => request.header(name) !== undefined)) return false;
  const host = request.header("host");
  if (host === undefined || !isLoopbackHost(host)) return false;
  const origin = request.header("origin");
  if (origin === undefined) return true;
  try {
    return isLoopbackHost(new URL(origin).host);
  } catch {
    return false;
  }
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether `Authorization: Bearer <token>` carries the operator's token, compared in constant time
 * (both sides hashed first, so neither the content nor the length leaks through timing).
 */
export function hasBearerToken(authorization: string | undefined, token: string | undefined) {
  if (!token || !authorization) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match?.[1]) return false;
  return timingSafeEqual(digest(match[1]), digest(token));
}

/**
 * The rule for operational endpoints (`/metrics` of the API and of the worker, the indexer's
 * `/graphql` and `/sql`, the local email capture): the operator's token (OPS_TOKEN) always, and
 * a request that looks local where the listener may trust appearances (`trustLocal`: every
 * listener but a published API port, see publicPortTrustsLocal).
 */
export function isOperationalRequestAllowed(
  request: RequestSource,
  token: string | undefined,
  trustLocal = true,
): boolean {
  return (
    (trustLocal && isLocalRequest(request)) ||
    hasBearerToken(request.header("authorization"), token)
  );
}

/**
 * Whether the API's public port (PORT) may answer its operational endpoints to requests that
 * merely look local, without the token: only in a zero-config development set-up. A reverse
 * proxy on this host (nginx's `proxy_pass http://127.0.0.1:3000;` as shipped) hands every
 * visitor's request over from loopback, with `Host: 127.0.0.1:3000` and no X-Forwarded-For: no
 * request can tell it from a local one. So the decision is taken from the configuration, which
 * says whether the service is published: a non-loopback HOST, TRUST_PROXY, a public BASE_URL
 * or PAY_URL (the origins every link points at), or a real chain (BASE_RPC_URL) each mean it
 * may be, and the public port then serves those endpoints with the token only; the loopback
 * operational listener (OPS_PORT) serves them to this machine.
 */
export function publicPortTrustsLocal(settings: {
  host: string;
  trustProxy: number;
  baseUrl: string;
  payUrl: string;
  localChain: boolean;
}): boolean {
  const loopbackOrigin = (url: string) => isLoopbackHost(new URL(url).host);
  // HOST is a bare name or address (`::1`, not `[::1]`), never with a port.
  const loopbackInterface = isIP(settings.host)
    ? isLoopbackAddress(settings.host)
    : isLoopbackHost(settings.host);
  return (
    settings.localChain &&
    settings.trustProxy === 0 &&
    loopbackInterface &&
    loopbackOrigin(settings.baseUrl) &&
    loopbackOrigin(settings.payUrl)
  );
}
