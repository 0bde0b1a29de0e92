-- Underpayment tolerance (issue 17 item 5): a merchant may let a shortfall of at most this many
-- USDC base units still count as `paid` (exchange withdrawal fees are the usual cause). Opt-in:
-- 0, the default, keeps the spec's `paid` = exactly the total. Capped at 10 USDC (docs/api.md,
-- "Underpayment tolerance").
alter table app.merchants add column underpayment_tolerance bigint not null default 0
  check (underpayment_tolerance between 0 and 10000000);

-- Each invoice keeps the tolerance its merchant had when it was issued, like its other terms:
-- reconcile derives its status afresh on every run (replays, reorgs), so a setting changed later
-- must not turn an invoice already `paid` back into `partial`, nor the other way round. Set by a
-- trigger, so every way of creating an invoice snapshots it.
alter table app.invoices add column underpayment_tolerance bigint not null default 0
  check (underpayment_tolerance >= 0);

create function app.snapshot_underpayment_tolerance() returns trigger
language plpgsql as $$
begin
  new.underpayment_tolerance := coalesce(
    (select m.underpayment_tolerance from app.merchants m where m.id = new.merchant_id), 0);
  return new;
end
$$;

create trigger invoices_underpayment_tolerance before insert on app.invoices
  for each row execute function app.snapshot_underpayment_tolerance();
