import type { Kysely, Selectable } from "kysely";
import type { Database } from "../database.ts";

export type EmailRow = Selectable<Database["app.emails"]>;

export async function findEmail(db: Kysely<Database>, id: string): Promise<EmailRow | undefined> {
  return db.selectFrom("app.emails").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function markEmailSent(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable("app.emails")
    .set((eb) => ({
      status: "sent",
      sent_at: new Date(),
      attempts: eb("attempts", "+", 1),
      last_error: null,
    }))
    .where("id", "=", id)
    .execute();
}

export async function recordEmailFailure(
  db: Kysely<Database>,
  id: string,
  error: string,
  final: boolean,
): Promise<void> {
  await db
    .updateTable("app.emails")
    .set((eb) => ({
      attempts: eb("attempts", "+", 1),
      last_error: error.slice(0, 2000),
      ...(final ? { status: "failed" } : {}),
    }))
    .where("id", "=", id)
    .execute();
}
