import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  sql,
} from "kysely";
import { describe, expect, test } from "vitest";
import { decodeListCursor } from "../../domain/listCursor.ts";
import type { Database } from "../database.ts";
import { keysetBatch, keysetPage, type ListOrder, pastKey } from "./listPage.ts";

/** Postgres' SQL, no server: each query is recorded and answered with `rows`. */
function recordingDb(rows: Record<string, unknown>[]) {
  const queries: CompiledQuery[] = [];
  const connection: DatabaseConnection = {
    executeQuery: async <R>(query: CompiledQuery) => {
      queries.push(query);
      return { rows } as QueryResult<R>;
    },
    streamQuery: () => {
      throw new Error("not streamed");
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  return { db, queries };
}

const ORDER: ListOrder = { kind: "links", moment: "l.created_at", id: "l.id", idType: "uuid" };
const id = (n: number) => `0000000${n}-aaaa-4bbb-8ccc-dddddddddddd`;
const row = (n: number) => ({ id: id(n), list_at: `2026-10-0${n}T09:30:00.00000${n}Z` });
const linksOf = (db: Kysely<Database>) =>
  db.selectFrom("app.payment_links as l").select(["l.id"]).where("l.merchant_id", "=", id(9));

describe("keysetPage", () => {
  test("seeks past the cursor's row, newest first, and reads one row more than the page", async () => {
    const { db, queries } = recordingDb([]);
    const after = { at: "2026-10-01T09:30:00.123456Z", id: id(1) };
    await keysetPage(linksOf(db), ORDER, { limit: 2, after });
    expect(queries[0]?.sql).toBe(
      `select "l"."id", to_char("l"."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "list_at" from "app"."payment_links" as "l" where "l"."merchant_id" = $1 and ("l"."created_at", "l"."id") < ($2::timestamptz, $3::uuid) order by "l"."created_at" desc, "l"."id" desc limit $4`,
    );
    expect(queries[0]?.parameters).toEqual([id(9), after.at, after.id, 3]);
  });

  test("the next cursor is the last row's key, and only when a row beyond the page exists", async () => {
    const full = await keysetPage(linksOf(recordingDb([row(1), row(2), row(3)]).db), ORDER, {
      limit: 2,
    });
    expect(full.rows).toEqual([row(1), row(2)]);
    expect(full.nextCursor && decodeListCursor("links", full.nextCursor)).toEqual({
      at: row(2).list_at,
      id: id(2),
    });
    const last = await keysetPage(linksOf(recordingDb([row(1), row(2)]).db), ORDER, { limit: 2 });
    expect(last).toEqual({ rows: [row(1), row(2)], nextCursor: null });
  });
});

describe("keysetBatch", () => {
  test("walks oldest first after the key, `limit` rows", () => {
    const { db } = recordingDb([]);
    const after = { at: "2026-10-01T09:30:00.123456Z", id: id(1) };
    const compiled = keysetBatch(linksOf(db), ORDER, after, 500).compile();
    expect(compiled.sql).toMatch(
      /\("l"\."created_at", "l"\."id"\) > \(\$2::timestamptz, \$3::uuid\) order by "l"\."created_at", "l"\."id" limit \$4$/,
    );
  });
});

describe("pastKey", () => {
  test("compares a text id, or an id expression", () => {
    const { db } = recordingDb([]);
    const key = { at: "2026-10-01T09:30:00.123456Z", id: "0xab-1" };
    const text = pastKey({ moment: "p.block_time", id: "p.id", idType: "text" }, key, "desc");
    expect(text.compile(db).sql).toBe(`("p"."block_time", "p"."id") < ($1::timestamptz, $2::text)`);
    const refundId = sql`${sql.ref("r.id")}::text`;
    const expression = pastKey(
      { moment: "r.confirmed_at", id: refundId, idType: "text" },
      key,
      "asc",
    );
    expect(expression.compile(db).sql).toBe(
      `("r"."confirmed_at", "r"."id"::text) > ($1::timestamptz, $2::text)`,
    );
  });
});
