-- A confirmed refund changes what GET /api/payments/status/{slug} answers (`refunded_amount`):
-- tell the API's status cache, as a status change does (0005_status_notify.sql).

create function app.notify_refund_status() returns trigger
language plpgsql as $$
declare
  changed text;
begin
  if new.invoice_id is not null then
    select slug into changed from app.invoices where id = new.invoice_id;
  else
    select slug into changed from app.payment_links where id = new.link_id;
  end if;
  if changed is not null then
    perform pg_notify('remit_status', changed);
  end if;
  return null;
end
$$;

create trigger refunds_status_notify after update of status on app.refunds
  for each row when (new.status = 'confirmed' and old.status is distinct from 'confirmed')
  execute function app.notify_refund_status();
