-- The API caches GET /api/payments/status/{slug} answers in memory; these triggers tell it
-- (NOTIFY remit_status, payload: the slug) when one may have changed.

create function app.notify_status_change() returns trigger
language plpgsql as $$
declare
  changed text;
begin
  if tg_table_name = 'payment_state' then
    select slug into changed from app.invoices where deposit_address = new.deposit_address;
    if changed is null then
      select slug into changed from app.payment_links where deposit_address = new.deposit_address;
    end if;
  else
    changed := new.slug;
  end if;
  if changed is not null then
    perform pg_notify('remit_status', changed);
  end if;
  return null;
end
$$;

create trigger invoices_status_notify after update of status, sent_at on app.invoices
  for each row execute function app.notify_status_change();
create trigger payment_links_status_notify after update of status on app.payment_links
  for each row execute function app.notify_status_change();
create trigger payment_state_notify after insert or update on app.payment_state
  for each row execute function app.notify_status_change();
