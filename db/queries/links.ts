import type { Selectable } from "kysely";
import { SLUG_PATTERN } from "../../domain/tokens.ts";
import type { Database, Executor } from "../database.ts";

export type LinkRow = Selectable<Database["app.payment_links"]>;

/** The payment link with this slug, or undefined (also for strings that cannot be slugs). */
export async function findLinkBySlug(db: Executor, slug: string): Promise<LinkRow | undefined> {
  if (!SLUG_PATTERN.test(slug)) return undefined;
  return db.selectFrom("app.payment_links").selectAll().where("slug", "=", slug).executeTakeFirst();
}
