import { sql } from "kysely";
import type { SweepOwner } from "../../domain/sweepPolicy.ts";
import type { Executor } from "../database.ts";

/** What the sweep policy needs to know of a deposit address, from the database. */
export type SweepFacts = {
  owner: SweepOwner;
  received: bigint;
  swept: bigint;
  /** Of `swept`, what sweeps signed and not (or no longer) submitted are to move. */
  signed: bigint;
  /** What refunds out of the address took or are taking (not `failed`). */
  refunding: bigint;
  lastChangeAt: Date | null;
};

/**
 * The sweep policy's facts about a deposit address in one statement: what it belongs to (an
 * invoice's or a link's amount and stored status), what reconcile counted on it and when it last
 * recorded a change, what its sweeps moved or are moving (every sweep not `failed`), and what
 * refunds out of it took or are taking.
 * Undefined for an address that is nobody's.
 */
export async function loadSweepFacts(
  db: Executor,
  depositAddress: string,
): Promise<SweepFacts | undefined> {
  const { rows } = await sql<{
    kind: "invoice" | "link" | null;
    status: string | null;
    amount: bigint | null;
    received: bigint;
    received_in_currency: bigint | null;
    currency: string | null;
    swept: bigint;
    signed: bigint;
    refunding: bigint;
    updated_at: Date | null;
  }>`
    select
      case when i.id is not null then 'invoice' when l.id is not null then 'link' end as kind,
      coalesce(i.status, l.status) as status,
      -- An invoice's after its credit notes (domain/moneyRules.ts invoicedAmount).
      coalesce(i.total_amount - i.credited_amount, l.amount) as amount,
      coalesce(s.received, 0)::bigint as received,
      s.received_in_currency,
      coalesce(i.currency, l.currency) as currency,
      s.updated_at,
      (select coalesce(sum(w.amount), 0)::bigint from app.sweeps w
        where w.deposit_address = d.address and w.status <> 'failed') as swept,
      (select coalesce(sum(w.amount), 0)::bigint from app.sweeps w
        where w.deposit_address = d.address and w.status = 'signed') as signed,
      (select coalesce(sum(r.amount), 0)::bigint from app.refunds r
        where r.from_address = d.address and r.status <> 'failed') as refunding
    from app.deposit_addresses d
    left join app.invoices i on i.deposit_address = d.address
    left join app.payment_links l on l.deposit_address = d.address
    left join app.payment_state s on s.deposit_address = d.address
    where d.address = ${depositAddress.toLowerCase()}`.execute(db);
  const row = rows[0];
  if (!row?.kind || row.status === null || row.amount === null) return undefined;
  return {
    owner: {
      kind: row.kind,
      status: row.status,
      amount: row.amount,
      // Priced in a currency: its amount is in it, and so is what is judged settled.
      ...(row.currency !== "USDC" ? { receivedInCurrency: row.received_in_currency ?? 0n } : {}),
    } as SweepOwner,
    received: row.received,
    swept: row.swept,
    signed: row.signed,
    refunding: row.refunding,
    lastChangeAt: row.updated_at,
  };
}
