import type { IncomingMessage } from "node:http";
import type { Context } from "hono";

/**
 * Headers Node keeps only the first of when a request repeats them, where the Fetch API's
 * `Headers.get` joins every value with ", " (node:http's `IncomingMessage.headers`). For these
 * the two readings differ, so a present one is read the standard way.
 */
const FIRST_ONLY_IN_NODE = new Set([
  "age",
  "authorization",
  "content-length",
  "content-type",
  "etag",
  "expires",
  "from",
  "host",
  "if-modified-since",
  "if-unmodified-since",
  "last-modified",
  "location",
  "max-forwards",
  "proxy-authorization",
  "referer",
  "retry-after",
  "server",
  "user-agent",
  "cookie",
  "set-cookie",
]);

/**
 * A request header (`name` in lower case), as `c.req.header(name)` answers, without making
 * @hono/node-server build the request's WHATWG `Headers`: the first `c.req.header()` of a
 * request copies every header into one, which costs more than all of the status endpoint's own
 * work. Under node-server the value comes from the headers Node has already parsed: absent
 * there is absent; present, it is Node's value where Node joins repeats as `Headers.get` does
 * (", "), and the standard reading otherwise. Outside node-server (app.request in tests, other
 * runtimes): the standard reading.
 *
 * @example
 * requestHeader(c, "x-forwarded-for") // "203.0.113.7, 10.0.0.1" or undefined
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming?.headers) return c.req.header(name);
  const value = incoming.headers[name];
  if (value === undefined) return undefined;
  if (typeof value === "string" && !FIRST_ONLY_IN_NODE.has(name)) return value;
  return c.req.header(name);
}
