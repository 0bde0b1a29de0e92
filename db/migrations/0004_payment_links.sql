-- Payment links: a fixed amount, a hosted checkout and its own deposit address.

create table app.payment_links (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique,
  merchant_id uuid not null references app.merchants (id),
  merchant_email text not null,
  amount bigint not null check (amount > 0),
  description text not null,
  wallet_type text not null check (wallet_type in ('managed', 'byo')),
  wallet_address text not null check (wallet_address ~ '^0x[0-9a-fA-F]{40}$'),
  deposit_address text not null unique references app.deposit_addresses (address),
  webhook_url text,
  webhook_secret text,
  metadata jsonb not null default '{}',
  redirect_url text,
  status text not null default 'pending' check (status in ('pending', 'confirmed', 'partial', 'excess')),
  created_at timestamptz not null default now(),
  check ((webhook_url is null) = (webhook_secret is null))
);

-- Like invoices, links are append-only but for their status.
create function app.reject_link_change() returns trigger
language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'payment links are append-only: they cannot be deleted'
      using errcode = 'integrity_constraint_violation';
  end if;
  if (to_jsonb(new) - 'status') <> (to_jsonb(old) - 'status') then
    raise exception 'payment links are append-only: only status may change'
      using errcode = 'integrity_constraint_violation';
  end if;
  return new;
end
$$;
create trigger payment_links_append_only before update or delete on app.payment_links
  for each row execute function app.reject_link_change();
create trigger payment_links_no_truncate before truncate on app.payment_links
  for each statement execute function app.reject_any_change();

-- Payment state and events now belong to an invoice or to a link.
alter table app.invoice_payment_state rename to payment_state;
alter table app.payment_state drop constraint invoice_payment_state_pkey;
alter table app.payment_state alter column invoice_id drop not null;
alter table app.payment_state add column link_id uuid references app.payment_links (id);
alter table app.payment_state add column deposit_address text;
update app.payment_state s set deposit_address = i.deposit_address from app.invoices i where i.id = s.invoice_id;
alter table app.payment_state alter column deposit_address set not null;
alter table app.payment_state add primary key (deposit_address);

alter table app.payment_events alter column invoice_id drop not null;
alter table app.payment_events add column link_id uuid references app.payment_links (id);
alter table app.payment_events add constraint payment_events_one_owner check ((invoice_id is null) <> (link_id is null));
alter table app.payment_events drop constraint payment_events_type_check;
alter table app.payment_events add constraint payment_events_type_check check (type in (
  'invoice.paid', 'invoice.partial', 'invoice.excess', 'invoice.payment_reversed',
  'link.confirmed', 'link.partial', 'link.excess', 'link.payment_reversed'));
create index payment_events_link on app.payment_events (link_id, created_at);

alter table app.idempotency_keys add column link_id uuid references app.payment_links (id);
