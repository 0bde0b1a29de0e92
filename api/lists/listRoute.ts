import { type RouteConfig, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { assertKnownParams, metadataFilterOf, pageOf } from "../../app/lists/listQuery.ts";
import type { ListPage, ListResult } from "../../app/lists/merchantLists.ts";
import type { ListKind } from "../../domain/listCursor.ts";
import type { AppEnv } from "../appEnv.ts";
import { requireKey } from "../auth/authorize.ts";
import { actorOf, type KeyIdentity } from "../auth/identity.ts";
import { errorResponses, jsonResponse, keyRoute } from "../openapi.ts";

/**
 * The HTTP side of every list (the invoices, links, payments, events, schedules, the audit log,
 * the exports): one route shape, one way to read the request, one page body. A list module
 * states only its query, its item and how a row is shown.
 */

/**
 * A route of the merchant's own records: GET `path` with a key (`read` is enough), its query
 * validated, answering `response`; the 400 and 401 documented.
 */
export const listRoute = <
  P extends string,
  Q extends z.ZodObject,
  R extends RouteConfig["responses"][string],
>(config: {
  path: P;
  tags: string[];
  summary: string;
  description: string;
  query: Q;
  response: R;
}) =>
  keyRoute({
    method: "get",
    path: config.path,
    tags: config.tags,
    summary: config.summary,
    description: config.description,
    request: { query: config.query },
    responses: { 200: config.response, ...errorResponses(400, 401) },
  });

/**
 * The 200 of a cursor-paged list: `{ data, next_cursor }`, a page of `item`s newest first and
 * the cursor of the next page (null on the last).
 */
export const pageResponse = <Item extends z.ZodType>(
  what: string,
  item: Item,
  example: z.output<Item>,
) =>
  jsonResponse(
    `A page of ${what}`,
    z.object({ data: z.array(item), next_cursor: z.string().nullable() }),
    { data: [example], next_cursor: null },
  );

/**
 * What every paged list's handler starts with, in this order: the caller's key (a 401 without),
 * the list's `metadata[key]` filters when `known` has `metadata`, its parameters checked against
 * `known` (one it does not know is a 400: `?stauts=paid` ignored would widen the list), and the
 * page asked for (a cursor of another list, or no cursor at all, is a 400).
 */
export function listRequest(
  c: Context<AppEnv>,
  kind: ListKind,
  query: { limit?: string | undefined; cursor?: string | undefined },
  known: readonly string[],
): {
  actor: { identity: KeyIdentity; requestId: string | null };
  page: ListPage;
  metadata: Record<string, string> | undefined;
} {
  const identity = requireKey(c);
  const { metadata, rest } = known.includes("metadata")
    ? metadataFilterOf(c.req.query())
    : { metadata: undefined, rest: c.req.query() };
  assertKnownParams(rest, known);
  return { actor: { ...actorOf(c), identity }, page: pageOf(kind, query), metadata };
}

/** A page's body: its rows as the list shows them, and the cursor of the next page. */
export const pageBody = <Row, Item>(result: ListResult<Row>, present: (row: Row) => Item) => ({
  data: result.rows.map(present),
  next_cursor: result.nextCursor,
});
