-- The relayer's gas is one budget for everything it pays: sweeps, refunds and payers' gasless
-- payments (docs/operations.md, "The relayer's gas budget"). Each relayer transaction names the
-- merchant it was paid for, so the day's spend is counted globally and per merchant, and keeps
-- the gas its receipt says it used.
alter table app.relayer_transactions add column merchant_id uuid references app.merchants (id);
alter table app.relayer_transactions add column gas_used bigint check (gas_used >= 0);

-- The transactions recorded before: their merchant from what they paid for (`purpose`).
update app.relayer_transactions t set merchant_id = r.merchant_id
  from app.refunds r
  where t.purpose like 'refund:%' and r.id::text = split_part(t.purpose, ':', 2);
update app.relayer_transactions t set merchant_id = coalesce(
    (select i.merchant_id from app.invoices i where i.deposit_address = s.deposit_address),
    (select l.merchant_id from app.payment_links l where l.deposit_address = s.deposit_address))
  from app.sweeps s
  where t.purpose like 'sweep:%' and s.id::text = split_part(t.purpose, ':', 2);
update app.relayer_transactions t set merchant_id = coalesce(
    (select i.merchant_id from app.invoices i where i.deposit_address = a.deposit_address),
    (select l.merchant_id from app.payment_links l where l.deposit_address = a.deposit_address))
  from app.payer_authorizations a
  where t.purpose like 'relay:%' and a.id::text = split_part(t.purpose, ':', 2);

-- The day's spend, globally and per merchant.
create index relayer_transactions_created on app.relayer_transactions (created_at);
create index relayer_transactions_merchant_created on app.relayer_transactions (merchant_id, created_at)
  where merchant_id is not null;
-- A merchant's refunds of the last hour (its rate), and every unfinished one (their reserved gas).
create index refunds_merchant_created on app.refunds (merchant_id, created_at);
create index refunds_unfinished on app.refunds (merchant_id) where status in ('requested', 'submitted');
