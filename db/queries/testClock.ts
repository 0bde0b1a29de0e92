import { sql } from "kysely";
import type { Executor } from "../database.ts";

/** The test clock's offset in milliseconds (0 when never set). */
export async function readClockOffset(db: Executor): Promise<number> {
  const row = await db.selectFrom("app.test_clock").select("offset_ms").executeTakeFirst();
  return row ? Number(row.offset_ms) : 0;
}

/** Sets the test clock's offset (tests and the benchmark only: TEST_CLOCK=on reads it). */
export async function setClockOffset(db: Executor, offsetMs: number): Promise<void> {
  await db
    .insertInto("app.test_clock")
    .values({ offset_ms: BigInt(Math.round(offsetMs)) })
    .onConflict((oc) => oc.column("id").doUpdateSet({ offset_ms: sql`excluded.offset_ms` }))
    .execute();
}
