// Ponder fixes this folder: it loads indexing functions from src/. The logic lives in indexer/.

import { type Context, ponder } from "ponder:registry";
import { usdcTransfer } from "ponder:schema";
import { startHeartbeat } from "../db/heartbeat.ts";
import { missedTransfers, rowsStillCanonical } from "../indexer/catchUp.ts";
import { depositAddresses } from "../indexer/depositAddresses.ts";
import { HeldRows } from "../indexer/heldRows.ts";
import { indexerLog } from "../indexer/log.ts";
import { whenPonderLive } from "../indexer/ponderLive.ts";
import { RerunRows } from "../indexer/rerunRows.ts";
import { indexerSettings } from "../indexer/settings.ts";
import { type TransferRow, transferRow } from "../indexer/transferRow.ts";

/** After a failed catch-up (the RPC), the next transfer retries it, but not sooner than this. */
const CATCH_UP_RETRY_MS = 2_000;
let catchUpRetryAt = 0;
/** A catch-up's rows until they are seen committed: a failed block takes them with it. */
const caughtUp = new HeldRows<TransferRow>((ids) => depositAddresses.committedTransferIds(ids));
const rerun = new RerunRows();

/**
 * Stores rows in the event's transaction (a row already there is left as it is). A row given in
 * an attempt Ponder is running again is written with SQL of our own: Ponder's row cache may still
 * hold the failed attempt's copy and skip it (rerunRows.ts).
 */
async function store(
  db: Context<"USDC:Transfer">["db"],
  rows: TransferRow[],
  checkpoint: string,
): Promise<void> {
  const ids = rows.map((row) => row.id);
  if (rerun.give(ids, checkpoint))
    await db.sql.insert(usdcTransfer).values(rows).onConflictDoNothing();
  else await db.insert(usdcTransfer).values(rows).onConflictDoNothing();
}

ponder.on("USDC:Transfer", async ({ event, context }) => {
  rerun.handling(event.id);
  const addresses = await depositAddresses.current(event.block.number);
  // Rows an earlier catch-up stored in a transaction Ponder may have rolled back and retried:
  // stored again if their block is still the chain's (a reorg may be why they are gone).
  const held = await caughtUp.uncommitted();
  if (held.length) {
    // The chain not answering: held, and looked at again at the next transfer.
    const canonical = await rowsStillCanonical(context.client, held).catch(() => null);
    if (canonical) {
      caughtUp.forget(held.filter((row) => !canonical.includes(row)).map((row) => row.id));
      if (canonical.length) await store(context.db, canonical, event.id);
    }
  }
  // Addresses the set learnt late (its connection was lost): find what went by meanwhile, up to
  // this block, and store it as live transfers are stored.
  const catchUp = Date.now() >= catchUpRetryAt ? depositAddresses.takeCatchUp() : null;
  if (catchUp) {
    try {
      const rows = await missedTransfers(
        context.client,
        catchUp.addresses,
        catchUp.fromBlock,
        event.block.number,
      );
      if (rows.length) {
        await store(context.db, rows, event.id);
        caughtUp.hold(rows);
      }
      indexerLog("info", "catch-up of deposit addresses learnt late", {
        addresses: catchUp.addresses,
        from_block: String(catchUp.fromBlock),
        to_block: String(event.block.number),
        transfers: rows.map((row) => row.id),
      });
    } catch (error) {
      // Never fatal (Ponder stops on a throwing handler): owed again, retried shortly.
      depositAddresses.owe(catchUp);
      catchUpRetryAt = Date.now() + CATCH_UP_RETRY_MS;
      indexerLog("warn", "catch-up of deposit addresses learnt late failed; retried", {
        addresses: catchUp.addresses,
        error: (error as Error).message,
      });
    }
  }
  const row = transferRow(event, addresses);
  if (row) await store(context.db, [row], event.id);
});

// The indexer process announces itself in app.heartbeats like the worker does (see /health),
// once its Ponder indexes live: before, /health would count it as detecting payments while it
// backfills or replays its last blocks after a restart (indexer/ponderLive.ts).
const { databaseUrl, schema } = indexerSettings();
if (databaseUrl) {
  const live = schema
    ? whenPonderLive(databaseUrl, schema, Math.floor(performance.timeOrigin))
    : Promise.resolve();
  void live.then(() => startHeartbeat("indexer", databaseUrl));
}
