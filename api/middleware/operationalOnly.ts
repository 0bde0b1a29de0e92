import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import {
  isOperationalRequestAllowed,
  type RequestSource,
} from "../../internal/operationalAccess.ts";

/** Who sent a request: under @hono/node-server the Node request is in `c.env.incoming`. */
export function requestSource(c: Context): RequestSource {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return { peer: incoming?.socket?.remoteAddress, header: (name) => c.req.header(name) };
}

type Refuse = (c: Context) => Response | Promise<Response>;

/**
 * Guards an operational endpoint (metrics, the indexer's GraphQL and SQL, the email capture):
 * served to requests carrying `Authorization: Bearer <OPS_TOKEN>`, and to requests from this
 * machine itself where the listener may trust what a request looks like (`trustLocal`: false on
 * a published API port, see publicPortTrustsLocal); `refuse` answers everyone else. See
 * internal/operationalAccess.ts for what counts as local.
 */
export function operationalOnly(
  token: string | undefined,
  refuse: Refuse,
  trustLocal = true,
): MiddlewareHandler {
  return async (c, next) =>
    isOperationalRequestAllowed(requestSource(c), token, trustLocal) ? next() : refuse(c);
}
