import { type Generated, Kysely, PostgresDialect } from "kysely";
import pg from "pg";

/** Remit's tables (schema `app`), as kysely sees them. Grows with the migrations. */
export interface Database {
  "app.deposit_addresses": {
    address: string;
    derivation_index: Generated<number>;
    created_at: Generated<Date>;
  };
  "app.heartbeats": {
    component: string;
    pid: number;
    beat_at: Generated<Date>;
  };
}

export type Db = Kysely<Database>;

// Postgres bigint (int8) and numeric arrive as strings by default; money must never pass
// through a JS number, so int8 becomes a bigint.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => BigInt(value));

/** A kysely instance over a pg pool; the caller destroys it. */
export function createDb(connectionString: string, max = 10): Db {
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max }) }),
  });
}
