// Ponder fixes this folder: it loads indexing functions from src/. The logic lives in indexer/.
import { ponder } from "ponder:registry";
import { usdcTransfer } from "ponder:schema";
import { startHeartbeat } from "../db/heartbeat.ts";
import { depositAddresses } from "../indexer/depositAddresses.ts";
import { transferRow } from "../indexer/transferRow.ts";

ponder.on("USDC:Transfer", async ({ event, context }) => {
  const row = transferRow(event, await depositAddresses.current());
  if (row) await context.db.insert(usdcTransfer).values(row).onConflictDoNothing();
});

// The indexer process announces itself in app.heartbeats like the worker does (see /health).
const databaseUrl = process.env.DATABASE_PRIVATE_URL ?? process.env.DATABASE_URL;
if (databaseUrl) startHeartbeat("indexer", databaseUrl);
