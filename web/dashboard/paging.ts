import type { Context } from "hono";
import type { ListPage } from "../../app/lists/merchantLists.ts";
import { decodeListCursor, type ListKind } from "../../domain/listCursor.ts";

/**
 * Where a dashboard list page is: the API's keyset cursor of the page shown (`after`, none on
 * the newest page), and the cursors of the pages walked before it (`newer`, oldest first; "" for
 * the newest page), so "Newer" goes back one page without an offset. The walk back is kept for
 * the last MAX_TRAIL pages; past that, "Newer" starts again from the newest.
 */
export type PageAt = { cursor: string | null; newer: string[] };

const MAX_TRAIL = 20;

/**
 * The page a dashboard list request asks for: `after` and `newer` from its query. A cursor that
 * is not one of this list's (typed by hand, another list's) shows the newest page.
 */
export function dashboardPageOf(
  c: Context,
  kind: ListKind,
  limit: number,
): { page: ListPage; at: PageAt } {
  const raw = c.req.query("after") ?? "";
  const after = raw ? decodeListCursor(kind, raw) : null;
  if (!after) return { page: { limit }, at: { cursor: null, newer: [] } };
  const newer = (c.req.query("newer") ?? "")
    .split(",")
    .slice(-MAX_TRAIL)
    .map((cursor) => (cursor && decodeListCursor(kind, cursor) ? cursor : ""));
  return { page: { limit, after }, at: { cursor: raw, newer } };
}

/** The query of the page after this one (its cursor from the list), and of the one before. */
export function pagerLinks(
  at: PageAt,
  nextCursor: string | null,
): { older: Record<string, string> | null; newer: Record<string, string> | null } {
  const older = nextCursor
    ? {
        after: nextCursor,
        newer: [...at.newer, at.cursor ?? ""].slice(-MAX_TRAIL).join(","),
      }
    : null;
  if (at.cursor === null) return { older, newer: null };
  const back = at.newer.at(-1) ?? "";
  const before = at.newer.slice(0, -1);
  const newer: Record<string, string> = back ? { after: back, newer: before.join(",") } : {};
  return { older, newer };
}
