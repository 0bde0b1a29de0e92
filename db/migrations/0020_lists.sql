-- Lists, search and exports (issue 19): the indexes every list and filter walks, a search
-- document per invoice, and the counted payments as rows of their own.
--
-- pg_trgm (trigram indexes, so `ILIKE '%term%'` is an index scan) and btree_gin (a uuid column
-- in the same GIN index, so a search is scoped to one merchant inside the index) are contrib
-- extensions marked trusted: a database owner may create them. They live in `app`, with the
-- rest of Remit's objects.
create extension if not exists pg_trgm with schema app;
create extension if not exists btree_gin with schema app;
select set_config('search_path', 'app, public, pg_catalog', true);

-- Every list is newest first, keyset-paginated on (created_at, id): one index walk per page,
-- whatever the page's depth.
create index invoices_merchant_created on app.invoices (merchant_id, created_at desc, id desc);
-- status filters (a status = walks its own slice in list order), amount and due-date ranges.
create index invoices_merchant_status_created on app.invoices (merchant_id, status, created_at desc, id desc);
create index invoices_merchant_total on app.invoices (merchant_id, total_amount);
create index invoices_merchant_due on app.invoices (merchant_id, due_date);

create index payment_links_merchant_created on app.payment_links (merchant_id, created_at desc, id desc);
create index payment_links_merchant_status_created on app.payment_links (merchant_id, status, created_at desc, id desc);
create index payment_links_merchant_amount on app.payment_links (merchant_id, amount);
create index payment_links_search on app.payment_links using gin (merchant_id, (slug || ' ' || description) gin_trgm_ops);

-- What `q` searches in an invoice: its number, the vendor's name and email, and every line
-- item's description, in one text per invoice, so one index answers the search. Invoices and
-- their line items are append-only, so the text is written when they are and never changes.
create table app.invoice_search (
  invoice_id uuid primary key references app.invoices (id),
  merchant_id uuid not null references app.merchants (id),
  document text not null
);
create index invoice_search_document on app.invoice_search using gin (merchant_id, document gin_trgm_ops);

create function app.index_invoice_search() returns trigger
language plpgsql as $$
begin
  if tg_table_name = 'invoices' then
    insert into app.invoice_search (invoice_id, merchant_id, document)
    values (new.id, new.merchant_id, new.invoice_number || ' ' || new.vendor_name || ' ' || new.vendor_email);
  else
    update app.invoice_search set document = document || ' ' || new.description
    where invoice_id = new.invoice_id;
  end if;
  return null;
end
$$;
create trigger invoices_search after insert on app.invoices
  for each row execute function app.index_invoice_search();
create trigger invoice_line_items_search after insert on app.invoice_line_items
  for each row execute function app.index_invoice_search();

insert into app.invoice_search (invoice_id, merchant_id, document)
select i.id, i.merchant_id,
  i.invoice_number || ' ' || i.vendor_name || ' ' || i.vendor_email || ' ' ||
  coalesce((select string_agg(l.description, ' ' order by l.position)
            from app.invoice_line_items l where l.invoice_id = i.id), '')
from app.invoices i;

-- Every counted transfer (GET /api/payments, the payments export): what the reconcile job
-- counted for a deposit address, written in the transaction that records its payment state, so
-- it is derived like the state is (a reorg that un-counts a transfer deletes its row). One row
-- per transfer, whose id is the indexer's (`<tx hash>-<log index>`).
create table app.payments (
  id text primary key,
  merchant_id uuid not null references app.merchants (id),
  deposit_address text not null,
  invoice_id uuid references app.invoices (id),
  link_id uuid references app.payment_links (id),
  payer text not null,
  amount bigint not null check (amount >= 0),
  tx_hash text not null,
  log_index integer not null,
  block_number bigint not null,
  block_time timestamptz not null,
  check ((invoice_id is null) <> (link_id is null))
);
create index payments_merchant_time on app.payments (merchant_id, block_time desc, id desc);
create index payments_merchant_amount on app.payments (merchant_id, amount);
create index payments_deposit on app.payments (deposit_address);

-- What was counted before this migration, where the indexer's stable views already exist.
do $$
begin
  if to_regclass('indexer.usdc_transfer') is not null then
    insert into app.payments (id, merchant_id, deposit_address, invoice_id, link_id, payer, amount,
                              tx_hash, log_index, block_number, block_time)
    select t.id, coalesce(i.merchant_id, l.merchant_id), s.deposit_address, s.invoice_id, s.link_id,
           t."from", t.value::bigint, t.tx_hash, t.log_index, t.block_number::bigint,
           to_timestamp(t.timestamp::double precision)
    from app.payment_state s
    cross join lateral unnest(s.counted) as c(id)
    join indexer.usdc_transfer t on t.id = c.id
    left join app.invoices i on i.id = s.invoice_id
    left join app.payment_links l on l.id = s.link_id
    on conflict (id) do nothing;
  end if;
end
$$;
