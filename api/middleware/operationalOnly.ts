import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import {
  isLocalRequest,
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
 * Guards an operational endpoint (metrics, the indexer's GraphQL and SQL): served to requests
 * from this machine itself, or carrying `Authorization: Bearer <OPS_TOKEN>`; `refuse` answers
 * everyone else. See internal/operationalAccess.ts for what counts as local.
 */
export function operationalOnly(token: string | undefined, refuse: Refuse): MiddlewareHandler {
  return async (c, next) =>
    isOperationalRequestAllowed(requestSource(c), token) ? next() : refuse(c);
}

/** Guards a development-only endpoint (the email capture): local requests only, no token. */
export function localOnly(refuse: Refuse): MiddlewareHandler {
  return async (c, next) => (isLocalRequest(requestSource(c)) ? next() : refuse(c));
}
