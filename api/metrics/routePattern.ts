/** Label for requests no route answers: their paths are arbitrary, so they share one series. */
export const UNMATCHED_ROUTE = "unmatched";

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The route a request was answered by, as its pattern (`/api/invoices/:id`), never the raw
 * path: ids and slugs would give every invoice a series of its own. `routes` are the routes
 * Hono matched for the request, in order; middleware is registered for every method ("ALL"),
 * so the last route bound to a method is the endpoint, even when a middleware or a validator
 * before it answered (a 400, a 415). Only middleware matched: nothing handles the path.
 *
 * @example
 * routePattern([{ method: "ALL", path: "*" }, { method: "GET", path: "/i/:slug" }]) // "/i/:slug"
 */
export function routePattern(routes: readonly { method: string; path: string }[]): string {
  for (let index = routes.length - 1; index >= 0; index--) {
    const route = routes[index];
    if (route && route.method !== "ALL") return route.path;
  }
  return UNMATCHED_ROUTE;
}

/** The request method as a label; made-up methods share "other". */
export function methodLabel(method: string): string {
  const upper = method.toUpperCase();
  return KNOWN_METHODS.has(upper) ? upper : "other";
}
