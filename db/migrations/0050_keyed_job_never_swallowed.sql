-- A keyed job graphile-worker can swallow. add_job (graphile_worker.add_jobs) takes two
-- statements: it clears the key of a running (locked) job with that key, then inserts with
-- `on conflict (key) do update ... where locked_at is null`. A worker that locks the existing
-- job between the two makes the upsert do nothing: no new job, and the running one started
-- before this transaction's changes were committed, so it cannot see them. For the reconcile
-- trigger that is a payment no reconcile ever counts (until a restart's catch-up): the fault
-- suite's RPC outage failed in CI with that signature (2026-11-30, INV-0006 counted one half of
-- two, no job left: after the outage the backlog is indexed block after block, each block's
-- reconcile locked within milliseconds of the next block's insert).
--
-- app.add_keyed_job queues a job as add_job does and, when the upsert was swallowed, queues one
-- more without the key: a run that starts after this transaction commits. Jobs whose runs are
-- idempotent (reconcile, sweep) lose nothing by a second run; a swallowed one lost a run.
create function app.add_keyed_job(
  identifier text,
  payload json,
  job_key text,
  run_at timestamptz default null,
  priority int default null,
  job_key_mode text default 'replace'
) returns bigint
language plpgsql as $$
declare
  queued graphile_worker._private_jobs;
begin
  queued := graphile_worker.add_job(
    identifier, payload, run_at => run_at, job_key => job_key, priority => priority,
    job_key_mode => job_key_mode
  );
  if queued.id is null then
    queued := graphile_worker.add_job(identifier, payload, run_at => run_at, priority => priority);
  end if;
  return queued.id;
end
$$;

-- The reconcile trigger of migration 0047, queueing through app.add_keyed_job.
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
        perform app.add_keyed_job(
          'reconcile_deposit', json_build_object('address', candidate), 'reconcile:' || candidate
        );
      end if;
    end loop;
  exception when others then
    raise warning 'remit: could not enqueue a reconcile job: %', sqlerrm;
  end;
  return null;
end
$$;
