-- Issue 44. Tax on invoice lines (domain/tax.ts): each line's EN 16931 VAT category and rate,
-- both null on an invoice without tax (the spec's invoice, unchanged). The breakdown and the
-- subtotal and tax amounts are derived from the lines by the one rule (domain/invoiceTotals.ts
-- priceInvoice), never stored twice. Like every other field of an invoice, set at creation
-- and never changed (the append-only triggers of migration 0002 cover the new columns).
alter table app.invoice_line_items
  add column tax_category text check (tax_category in ('S', 'Z', 'E', 'AE', 'K', 'G', 'O')),
  -- Percent, as written without trailing zeros ("19", "7.5"); null for O and without tax.
  add column tax_rate text check (tax_rate ~ '^(100|[1-9]?[0-9])(\.[0-9]{0,2}[1-9])?$'),
  add check (tax_category is not null or tax_rate is null),
  add check ((tax_category = 'O') is not true or tax_rate is null);

-- The parties as tax authorities know them, and why no tax is charged where none is.
alter table app.invoices
  add column merchant_tax_id text,
  add column vendor_tax_id text,
  add column merchant_country text check (merchant_country ~ '^[A-Z]{2}$'),
  add column vendor_country text check (vendor_country ~ '^[A-Z]{2}$'),
  add column tax_exemption_reason text;
