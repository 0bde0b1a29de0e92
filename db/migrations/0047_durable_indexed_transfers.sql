-- Ponder turns synchronous_commit off on every connection it opens (ponder/dist/esm/utils/pg.js):
-- its commits return before their WAL is flushed. When Postgres crashes and the indexer does
-- not, the last few hundred milliseconds of indexed transfers (and the reconcile jobs their
-- insert queued) are gone from the database, while Ponder, in memory, has moved past their
-- blocks and never indexes them again: a payment that is never seen. The fault suite's kill -9
-- of Postgres found it (2026-11-29, docs/architecture.md, "Indexed transfers are durable").
--
-- So a transaction that writes a transfer row (insert, a reorg's delete, a restore) commits as
-- the database's own setting says (reset_val: what the server, database or role configure,
-- before Ponder's SET). Blocks without a transfer of ours stay asynchronous: losing one only
-- moves Ponder's stored checkpoint back, and a later start replays those empty blocks.
--
-- Each part has a block of its own that catches errors (the trigger never fails Ponder's write):
-- a caught error rolls back what its block did, a SET LOCAL with it, so the setting does not
-- share a block with the job.
create or replace function app.enqueue_reconcile() returns trigger
language plpgsql as $$
declare
  touched text[];
  candidate text;
begin
  begin
    perform set_config(
      'synchronous_commit',
      (select reset_val from pg_catalog.pg_settings where name = 'synchronous_commit'),
      true
    );
  exception when others then
    raise warning 'remit: could not make an indexed transfer durable: %', sqlerrm;
  end;
  begin
    if tg_op = 'DELETE' then
      touched := array[old."to", old."from"];
    else
      touched := array[new."to", new."from"];
    end if;
    foreach candidate in array touched loop
      if exists (select 1 from app.deposit_addresses d where d.address = candidate) then
        perform graphile_worker.add_job(
          'reconcile_deposit', json_build_object('address', candidate), job_key => 'reconcile:' || candidate
        );
      end if;
    end loop;
  exception when others then
    raise warning 'remit: could not enqueue a reconcile job: %', sqlerrm;
  end;
  return null;
end
$$;
