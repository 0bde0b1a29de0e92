-- Issue 47: the invoice search (`q`: GET /api/invoices, the dashboard's list) at 1M rows.
--
-- The trigram index of migration 0020 (`merchant_id, document gin_trgm_ops`) took 27-46 ms to
-- answer a rare term at 1M rows, most of it reading the posting lists of trigrams that are in
-- almost every document of every merchant ("ven", "inv", "ing"), which a term shares with its
-- rare part. Its keys are now each merchant's own trigrams: a merchant prefix (the id's first 8
-- hex digits; two merchants sharing one only share keys, the query still compares merchant_id)
-- before each trigram pg_trgm finds in the document. A merchant's keys hold that merchant's
-- rows only: "vendor 417" 5-8 ms, "INV-00042" 1 ms on the same seed (docs/benchmarks.md).
--
-- A term's keys (term_keys) are the trigrams every document containing it has, whatever comes
-- before and after it: pg_trgm pads each word with spaces, and a word the term cuts at its
-- first or last character may go on in the document ("41" is in "Vendor 417"), so only the
-- trigrams found with nothing, "x" or "y" on either side of the term (all nine) are kept: the
-- term's inner trigrams and the padded ones of word boundaries inside it ("or ", " 41" of
-- "vendor 41"). A term without any (shorter than three letters or digits) has no keys, and the
-- search reads the invoices instead (db/queries/invoiceLists.ts searchHits). ILIKE decides; the
-- keys only find candidates.
--
-- `created_at` (the invoice's) is stored beside its document, so a search's matches are put in
-- the list's order without reading the invoices.
drop index app.invoice_search_document;

create function app.search_keys(merchant uuid, document text) returns text[]
language sql immutable strict parallel safe as $$
  select array(select left(merchant::text, 8) || t from unnest(app.show_trgm(document)) t)
$$;

create function app.term_keys(merchant uuid, term text) returns text[]
language sql immutable strict parallel safe as $$
  select array(
    select left(merchant::text, 8) || t
    from (values (''), ('x'), ('y')) l(c), (values (''), ('x'), ('y')) r(c),
      unnest(app.show_trgm(l.c || term || r.c)) t
    group by t having count(*) = 9
    order by t)
$$;

-- Which of a term's keys to look up. A GIN index reads the whole posting list of every key it is
-- given (a common one: ~10 ms per 100,000 rows), and a rare key alone finds as few candidates as
-- all of them together ("417" alone: 0.2 ms; with "ven": 10 ms). So the keys asked for are those
-- ANALYZE did not find common (not among the index's most common elements: fewer rows each than
-- the least common of those), or, when all are, the least common one (then the search may find
-- more than it takes and read the invoices instead); `common` says so: the term is likely in many
-- invoices. Without statistics yet, all of them (a small table). The index's statistics are its
-- owner's to read (pg_stats hides an index's from other roles), hence SECURITY DEFINER, with the
-- search path pinned; it tells the caller no more than the search table it may read already does.
create function app.search_term_keys(merchant uuid, term text, out keys text[], out common boolean)
language sql stable security definer set search_path = pg_catalog, app as $$
  with term_keys as (select unnest(app.term_keys(merchant, term)) as key),
  most_common as (
    select e.key, e.freq
    from pg_stats s, unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) e(key, freq)
    where s.schemaname = 'app' and s.tablename = 'invoice_search_keys' and e.key is not null
  ),
  ranked as (select k.key, c.freq from term_keys k left join most_common c on c.key = k.key)
  select
    case
      when exists (select 1 from ranked where freq is null)
        then array(select key from ranked where freq is null order by key)
      else array(select key from ranked order by freq, key limit 1)
    end,
    exists (select 1 from ranked) and not exists (select 1 from ranked where freq is null)
$$;

revoke execute on function app.search_term_keys(uuid, text) from public;

alter table app.invoice_search add column created_at timestamptz;
update app.invoice_search f set created_at = i.created_at from app.invoices i where i.id = f.invoice_id;
alter table app.invoice_search alter column created_at set not null;

create index invoice_search_keys on app.invoice_search using gin (app.search_keys(merchant_id, document));

create or replace function app.index_invoice_search() returns trigger
language plpgsql as $$
begin
  if tg_table_name = 'invoices' then
    insert into app.invoice_search (invoice_id, merchant_id, created_at, document)
    values (new.id, new.merchant_id, new.created_at,
      new.invoice_number || ' ' || new.vendor_name || ' ' || new.vendor_email);
  else
    update app.invoice_search set document = document || ' ' || new.description
    where invoice_id = new.invoice_id;
  end if;
  return null;
end
$$;
