import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { createTwoRoleDatabase } from "../helpers/twoRoles.ts";

/**
 * The attack: the runtime role (a leaked DATABASE_URL) makes a temporary view named pg_stats
 * whose column calls its own function, then calls the search's SECURITY DEFINER function
 * (app.search_term_keys, migration 0048), which reads pg_stats. Had the function's search path
 * left pg_temp out, Postgres would look in the caller's temporary schema first and the view's
 * function would run as the owner: here it switches off the triggers of app.invoices, which
 * keeps the invoice record append-only and which only the owner may touch. Migration 0049 puts
 * pg_temp last: the function reads pg_catalog's pg_stats, and the triggers stay on.
 */
describe("a SECURITY DEFINER function does not read the caller's temporary objects", () => {
  let roles: Awaited<ReturnType<typeof createTwoRoleDatabase>>;
  let runtime: pg.Client;

  beforeAll(async () => {
    roles = await createTwoRoleDatabase(inject("postgresAdminUrl"), "tmpv");
    // TEMP, which PUBLIC holds on a new database unless an operator revokes it.
    await roles.admin(
      `grant temporary on database ${roles.names.database} to ${roles.names.runtime}`,
    );
    runtime = new pg.Client({ connectionString: roles.runtimeUrl });
    await runtime.connect();
  });
  afterAll(async () => {
    await runtime?.end();
    await roles?.drop();
  });

  test("a temporary pg_stats is not the one the search's function reads", async () => {
    // Only the owner may do this: as the runtime role itself it is refused.
    const refused = await runtime.query("alter table app.invoices disable trigger user").then(
      () => null,
      (e: Error) => e,
    );
    expect(refused?.message).toMatch(/must be owner/);

    await runtime.query(`
      create function pg_temp.escalate() returns text language plpgsql as $$
      begin
        alter table app.invoices disable trigger user;
        return '{}';
      end $$`);
    await runtime.query(`
      create temporary view pg_stats as
      select 'app'::name as schemaname, 'invoice_search_keys'::name as tablename,
        pg_temp.escalate() as most_common_elems, '{}'::real[] as most_common_elem_freqs`);
    // So that the function's owner, reading it, is not refused.
    await runtime.query("grant select on pg_temp.pg_stats to public");
    const { rows } = await runtime.query<{ keys: string[] }>(
      "select keys from app.search_term_keys('00000000-0000-4000-8000-000000000001', 'vendor 417')",
    );
    expect(rows[0]?.keys.length).toBeGreaterThan(0);

    const { rows: disabled } = await runtime.query<{ tgname: string }>(
      "select tgname from pg_trigger where tgrelid = 'app.invoices'::regclass and tgenabled = 'D'",
    );
    expect(disabled).toEqual([]);
  });
});
