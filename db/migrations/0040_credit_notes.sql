-- Issue 44. Credit notes: the one way to correct or cancel an issued invoice, which stays
-- append-only. A credit note is a document of its own (number CN-0001… per merchant, lines,
-- totals, a PDF rendered once), and lowers what its invoice asks for: the invoice's
-- `credited_amount` is the sum of its credit notes' totals, kept by a trigger on their insert
-- and checked by the invoice's append-only trigger, so no code can set it to anything else.
-- What the invoice asks for is total_amount - credited_amount (domain/moneyRules.ts).

alter table app.merchants add column last_credit_note_number integer not null default 0;

alter table app.invoices add column credited_amount bigint not null default 0;
alter table app.invoices add constraint invoices_credit_within_total
  check (credited_amount >= 0 and credited_amount <= total_amount);

create table app.credit_notes (
  id uuid primary key,
  merchant_id uuid not null references app.merchants (id),
  invoice_id uuid not null references app.invoices (id),
  credit_note_number text not null check (credit_note_number ~ '^CN-[0-9]{4,}$'),
  reason text not null check (length(reason) between 1 and 500),
  -- Whether it credits everything the invoice still asked for (`full: true`, or a void).
  credits_in_full boolean not null,
  issue_date date not null,
  subtotal_amount bigint not null check (subtotal_amount >= 0),
  tax_amount bigint not null check (tax_amount >= 0),
  total_amount bigint not null check (total_amount > 0 and total_amount = subtotal_amount + tax_amount),
  created_at timestamptz not null,
  unique (merchant_id, credit_note_number)
);
create index credit_notes_of_invoice on app.credit_notes (invoice_id, created_at);
create index credit_notes_of_merchant on app.credit_notes (merchant_id, created_at desc, id desc);

-- Its lines, the shape of an invoice's (tax included, migration 0039).
create table app.credit_note_lines (
  credit_note_id uuid not null references app.credit_notes (id),
  position smallint not null check (position between 0 and 29),
  description text not null,
  quantity numeric not null check (quantity > 0),
  unit_price bigint not null check (unit_price >= 0),
  line_total bigint not null check (line_total >= 0),
  tax_category text check (tax_category in ('S', 'Z', 'E', 'AE', 'K', 'G', 'O')),
  tax_rate text check (tax_rate ~ '^(100|[1-9]?[0-9])(\.[0-9]{0,2}[1-9])?$'),
  primary key (credit_note_id, position)
);

-- Rendered once, at issue; the bytes emailed are the bytes downloaded, as for invoices.
create table app.credit_note_pdfs (
  credit_note_id uuid primary key references app.credit_notes (id),
  pdf bytea not null,
  sha256 text not null
);

-- Documents for audit: never changed, never deleted (the invoices' own function refuses both
-- for tables without lifecycle columns: every column is compared).
create function app.reject_document_change() returns trigger
language plpgsql as $$
begin
  raise exception '% is append-only: its rows cannot be changed or deleted', tg_table_name
    using errcode = 'integrity_constraint_violation';
end
$$;
create trigger credit_notes_append_only before update or delete on app.credit_notes
  for each row execute function app.reject_document_change();
create trigger credit_note_lines_append_only before update or delete on app.credit_note_lines
  for each row execute function app.reject_document_change();
create trigger credit_note_pdfs_append_only before update or delete on app.credit_note_pdfs
  for each row execute function app.reject_document_change();
create trigger credit_notes_no_truncate before truncate on app.credit_notes
  for each statement execute function app.reject_document_change();
create trigger credit_note_lines_no_truncate before truncate on app.credit_note_lines
  for each statement execute function app.reject_document_change();
create trigger credit_note_pdfs_no_truncate before truncate on app.credit_note_pdfs
  for each statement execute function app.reject_document_change();

-- The invoice's credited amount follows its credit notes, in the same statement.
create function app.credit_invoice() returns trigger
language plpgsql as $$
begin
  update app.invoices set credited_amount = credited_amount + new.total_amount
    where id = new.invoice_id;
  return new;
end
$$;
create trigger credit_notes_credit_invoice after insert on app.credit_notes
  for each row execute function app.credit_invoice();

-- Append-only still: besides the lifecycle columns, credited_amount may change, and only to the
-- sum of the invoice's credit notes.
create or replace function app.reject_invoice_change() returns trigger
language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'invoices are append-only: % cannot be deleted', tg_table_name
      using errcode = 'integrity_constraint_violation';
  end if;
  if (to_jsonb(new) - array['status', 'sent_at', 'webhook_secret', 'voided_at', 'credited_amount'])
     <> (to_jsonb(old) - array['status', 'sent_at', 'webhook_secret', 'voided_at', 'credited_amount'])
     or (old.voided_at is not null and new.voided_at is distinct from old.voided_at) then
    raise exception 'invoices are append-only: only status and sent_at may change (and voided_at, once)'
      using errcode = 'integrity_constraint_violation';
  end if;
  if new.credited_amount <> old.credited_amount and new.credited_amount <> (
    select coalesce(sum(total_amount), 0) from app.credit_notes where invoice_id = new.id
  ) then
    raise exception 'invoices are append-only: credited_amount is the sum of the credit notes'
      using errcode = 'integrity_constraint_violation';
  end if;
  return new;
end
$$;

-- The event of a credit note, on the event log and the merchant's webhook endpoints.
alter table app.payment_events drop constraint payment_events_type_check;
alter table app.payment_events add constraint payment_events_type_check check (type in (
  'invoice.paid', 'invoice.partial', 'invoice.excess', 'invoice.payment_reversed',
  'link.confirmed', 'link.partial', 'link.excess', 'link.payment_reversed',
  'invoice.unexpected_payment', 'invoice.refunded', 'link.refunded', 'webhook.test',
  'invoice.will_be_due', 'invoice.overdue', 'credit_note.created'));

-- The vendor's email with the credit note's PDF: one per credit note.
alter table app.emails add column credit_note_id uuid references app.credit_notes (id);
create unique index emails_one_per_credit_note on app.emails (credit_note_id)
  where credit_note_id is not null;
