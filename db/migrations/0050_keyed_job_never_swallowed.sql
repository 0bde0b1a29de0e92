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
-- app.add_keyed_job queues as add_job does and, when the upsert was swallowed, asks again: its
-- next statement sees the worker's lock committed, so add_job clears the taken job's key and
-- inserts a fresh keyed job, which runs after this transaction commits (and later calls still
-- merge into it: a sweep for now replaces one for later). Should that be swallowed three times
-- (three workers taking three jobs of one key in those microseconds), a job without the key is
-- queued: a run too many costs an idempotent job nothing, a run too few lost a payment.
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
  queued bigint;
begin
  for attempt in 1..3 loop
    queued := (graphile_worker.add_job(
      identifier, payload, run_at => run_at, job_key => job_key, priority => priority,
      job_key_mode => job_key_mode
    )).id;
    if queued is not null then
      return queued;
    end if;
  end loop;
  return (graphile_worker.add_job(identifier, payload, run_at => run_at, priority => priority)).id;
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
