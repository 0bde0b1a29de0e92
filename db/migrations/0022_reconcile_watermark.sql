-- How far the worker's start-up catch-up has handed indexed transfers to reconcile: every
-- transfer of `indexer_schema` (each build of the indexer writes a schema of its own) in a
-- block up to `block_number` was either queued by the catch-up or seen by the transfer
-- trigger. A start reconciles the transfers above it, not the whole history (issue 20).
create table app.reconcile_watermarks (
  indexer_schema text primary key,
  block_number bigint not null,
  updated_at timestamptz not null default now()
);
