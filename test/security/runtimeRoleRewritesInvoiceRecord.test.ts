import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { databaseRoleProblem } from "../../db/runtimeRole.ts";
import { createTwoRoleDatabase } from "../helpers/twoRoles.ts";

const INVOICE = "00000000-0000-4000-8000-000000000002";

/**
 * The attack: someone holding the API's or worker's database credential (a leaked DATABASE_URL)
 * rewrites an issued invoice — its amount, its deposit address — deletes it, or switches off the
 * trigger that keeps the record append-only (spec §2.3), then truncates. With two roles
 * (MIGRATION_DATABASE_URL, db/runtimeRole.ts) that credential is the runtime role's, and
 * Postgres itself refuses each: the column is not granted, DELETE and TRUNCATE are not granted,
 * and only a table's owner may disable its triggers. What the service does (insert, change the
 * status) still works.
 */
describe("the runtime role cannot rewrite the invoice record", () => {
  const adminUrl = inject("postgresAdminUrl");
  let roles: Awaited<ReturnType<typeof createTwoRoleDatabase>>;
  let ownerUrl: string;
  let runtimeUrl: string;
  let runtime: pg.Client;

  beforeAll(async () => {
    // What `remit db roles` prints, with known passwords.
    roles = await createTwoRoleDatabase(adminUrl, "roles");
    ({ ownerUrl, runtimeUrl } = roles);
    runtime = new pg.Client({ connectionString: runtimeUrl });
    await runtime.connect();
    // The service's own writes, as the runtime role.
    await runtime.query(
      "insert into app.deposit_addresses (address) values ('0x1111111111111111111111111111111111111111')",
    );
    await runtime.query(
      "insert into app.merchants (id, email) values ('00000000-0000-4000-8000-000000000001', 'm@example.com')",
    );
    await runtime.query(
      `insert into app.invoices (id, merchant_id, invoice_number, slug, merchant_email,
        merchant_name_snapshot, merchant_address_snapshot, vendor_email, vendor_name, issue_date,
        due_date, wallet_type, wallet_address, deposit_address, total_amount, webhook_url,
        webhook_secret, status)
      values ($1, '00000000-0000-4000-8000-000000000001', 'INV-0001', 'slugINV00001',
        'm@example.com', 'M', 'Street', 'v@example.com', 'V', '2026-11-01', '2026-12-01', 'byo',
        '0x8ba1f109551bD432803012645Ac136ddd64DBA72', '0x1111111111111111111111111111111111111111',
        1000000, null, null, 'draft')`,
      [INVOICE],
    );
  });
  afterAll(async () => {
    await runtime?.end();
    await roles?.drop();
  });

  const refused = async (statement: string) => {
    const error = await runtime.query(statement).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message, statement).toMatch(/permission denied|must be owner/);
  };
  const stored = async () =>
    (
      await runtime.query<{ total_amount: string; deposit_address: string; status: string }>(
        "select total_amount, deposit_address, status from app.invoices where id = $1",
        [INVOICE],
      )
    ).rows[0];

  test("an issued invoice's amount or address cannot be updated, nor the invoice deleted", async () => {
    await refused(`update app.invoices set total_amount = 1 where id = '${INVOICE}'`);
    await refused(
      `update app.invoices set deposit_address = '0x2222222222222222222222222222222222222222' where id = '${INVOICE}'`,
    );
    await refused(`delete from app.invoices where id = '${INVOICE}'`);
    await refused("delete from app.invoice_line_items");
    expect(await stored()).toEqual({
      total_amount: "1000000",
      deposit_address: "0x1111111111111111111111111111111111111111",
      status: "draft",
    });
  });

  test("its append-only trigger cannot be disabled, nor the tables truncated or altered", async () => {
    await refused("alter table app.invoices disable trigger invoices_append_only");
    await refused("alter table app.invoices disable trigger all");
    await refused("truncate app.invoices cascade");
    await refused("truncate app.payment_conversions");
    await refused("alter table app.invoices add column note text");
    await refused("drop table app.audit_log");
    expect(await stored()).toMatchObject({ total_amount: "1000000" });
  });

  test("what the service does still works: the status moves, and the role is judged fit", async () => {
    await runtime.query(
      `update app.invoices set status = 'sent', sent_at = now() where id = '${INVOICE}'`,
    );
    expect(await stored()).toMatchObject({ status: "sent" });
    expect(await databaseRoleProblem(runtimeUrl)).toBeNull();
    // The owner is no runtime role: mainnet mode refuses it unless ALLOW_DATABASE_OWNER=true.
    expect(await databaseRoleProblem(ownerUrl)).toMatch(/owns the service's tables/);
    expect(await databaseRoleProblem(adminUrl)).toMatch(/a superuser/);
  });
});
