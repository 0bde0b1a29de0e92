import { sql } from "kysely";
import type { DepositOwner } from "../../domain/transactionLookup.ts";
import type { Executor } from "../database.ts";
import { indexerTableExists } from "./indexer.ts";

/** An indexed USDC transfer of one transaction to a deposit address, and whether it is counted. */
export type IndexedPayment = {
  id: string;
  to: string;
  value: bigint;
  blockNumber: bigint;
  counted: boolean;
};

/**
 * The indexed USDC transfers of transaction `hash` to Remit's deposit addresses, each with
 * whether reconcile counted it (app.payment_state.counted). With `recipients` (the receipt's
 * USDC recipients) the indexer's index on `to` finds them; without (the chain could not be
 * asked), the transaction's hash alone, which the indexer does not index: a scan, rare and
 * rate-limited.
 */
export async function indexedPaymentsOfTransaction(
  db: Executor,
  schema: string,
  hash: string,
  recipients: readonly string[] | null,
): Promise<IndexedPayment[]> {
  if (recipients !== null && recipients.length === 0) return [];
  if (!(await indexerTableExists(db, schema, "usdc_transfer"))) return [];
  const { rows } = await sql<{
    id: string;
    to: string;
    value: string;
    block_number: string;
    counted: boolean;
  }>`
    select t.id, t."to", t.value::text, t.block_number::text,
      coalesce(t.id = any(s.counted), false) as counted
    from ${sql.table(`${schema}.usdc_transfer`)} t
    join app.deposit_addresses d on d.address = t."to"
    left join app.payment_state s on s.deposit_address = t."to"
    where t.tx_hash = ${hash.toLowerCase()}
      ${recipients ? sql`and t."to" in (${sql.join(recipients.map((r) => r.toLowerCase()))})` : sql``}
    order by t.log_index`.execute(db);
  return rows.map((row) => ({
    id: row.id,
    to: row.to,
    value: BigInt(row.value),
    blockNumber: BigInt(row.block_number),
    counted: row.counted,
  }));
}

/**
 * What each of `addresses` belongs to, for those that are Remit's deposit addresses of an
 * invoice or a link (lowercase keys). Only what a lookup may show: the invoice's number, and
 * the slugs to compare with the caller's (never shown).
 */
export async function ownersOfDeposits(
  db: Executor,
  addresses: readonly string[],
): Promise<Map<string, DepositOwner>> {
  const owners = new Map<string, DepositOwner>();
  if (addresses.length === 0) return owners;
  const { rows } = await sql<{
    address: string;
    invoice_number: string | null;
    invoice_slug: string | null;
    link_slug: string | null;
  }>`
    select d.address, i.invoice_number, i.slug as invoice_slug, l.slug as link_slug
    from app.deposit_addresses d
    left join app.invoices i on i.deposit_address = d.address
    left join app.payment_links l on l.deposit_address = d.address
    where d.address in (${sql.join(addresses.map((a) => a.toLowerCase()))})`.execute(db);
  for (const row of rows) {
    if (row.invoice_number && row.invoice_slug)
      owners.set(row.address, {
        kind: "invoice",
        invoiceNumber: row.invoice_number,
        slug: row.invoice_slug,
      });
    else if (row.link_slug) owners.set(row.address, { kind: "link", slug: row.link_slug });
  }
  return owners;
}
