-- Webhook endpoints per merchant account (docs/api.md, "Webhook endpoints"): every event of the
-- merchant's invoices and links goes to each enabled endpoint whose `events` match, signed with
-- the endpoint's own secret, through the same deliveries, retries and attempt log as an
-- invoice's webhook_url.
create table app.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  merchant_id uuid not null references app.merchants (id),
  url text not null,
  -- The event types (or `invoice.*` / `link.*`) sent; null: every one.
  events text[],
  -- The signing secret (`whsec_…`), sealed like the invoices' (domain/secretBox.ts).
  secret text not null,
  -- After a rotation, the secret before it, still signing alongside until it expires.
  previous_secret text,
  previous_secret_expires_at timestamptz,
  enabled boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Deleted endpoints are kept (their deliveries name them) but never shown or sent to again.
  deleted_at timestamptz,
  check ((previous_secret is null) = (previous_secret_expires_at is null)),
  -- Only sealed values, as for the invoices' secrets (migration 0008).
  check (secret like 'enc:v1:%' and (previous_secret is null or previous_secret like 'enc:v1:%'))
);
create index webhook_endpoints_merchant on app.webhook_endpoints (merchant_id, created_at)
  where deleted_at is null;

-- A delivery to an endpoint (null: to the invoice's or link's own webhook_url, as before).
alter table app.webhook_deliveries add column endpoint_id uuid references app.webhook_endpoints (id);
create index webhook_deliveries_endpoint on app.webhook_deliveries (endpoint_id) where endpoint_id is not null;

-- The event log (GET /api/events): every event names its merchant, newest first per merchant.
alter table app.payment_events add column merchant_id uuid references app.merchants (id);
update app.payment_events e set merchant_id = coalesce(
    (select i.merchant_id from app.invoices i where i.id = e.invoice_id),
    (select l.merchant_id from app.payment_links l where l.id = e.link_id));
create index payment_events_merchant on app.payment_events (merchant_id, created_at desc, id desc)
  where merchant_id is not null;

-- Whoever records an event need not know its merchant: it is its invoice's or link's.
create function app.payment_event_merchant() returns trigger
language plpgsql as $$
begin
  if new.merchant_id is null then
    new.merchant_id := coalesce(
      (select i.merchant_id from app.invoices i where i.id = new.invoice_id),
      (select l.merchant_id from app.payment_links l where l.id = new.link_id));
  end if;
  return new;
end
$$;
create trigger payment_events_merchant before insert on app.payment_events
  for each row execute function app.payment_event_merchant();

-- A test event (POST /api/webhook-endpoints/{id}/test) belongs to the merchant alone.
alter table app.payment_events drop constraint payment_events_type_check;
alter table app.payment_events add constraint payment_events_type_check check (type in (
  'invoice.paid', 'invoice.partial', 'invoice.excess', 'invoice.payment_reversed',
  'link.confirmed', 'link.partial', 'link.excess', 'link.payment_reversed',
  'invoice.unexpected_payment', 'invoice.refunded', 'link.refunded', 'webhook.test'));
alter table app.payment_events drop constraint payment_events_one_owner;
alter table app.payment_events add constraint payment_events_one_owner check (
  (invoice_id is null) <> (link_id is null)
  or (type = 'webhook.test' and invoice_id is null and link_id is null and merchant_id is not null));
