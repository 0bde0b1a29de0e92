import { sql } from "kysely";
import type { Executor } from "../database.ts";

/** Resolves when the database answers the cheapest statement (what /health checks first). */
export async function pingDatabase(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}
