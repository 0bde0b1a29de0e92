-- Issue 45. A refund pays back USDC; for an invoice or link priced in a currency it also records
-- what it returns in that currency, as planned: its share of what the counted payments were
-- converted to (domain/moneyRules.ts shareInCurrency), taken when it is requested, so the
-- figure the merchant confirmed is the one its books keep however the payments' rates read later.
alter table app.refunds add column currency text not null default 'USDC'
  check (currency in ('USDC', 'USD', 'EUR', 'GBP'));
alter table app.refunds add column amount_in_currency bigint
  check (amount_in_currency is null or amount_in_currency >= 0);
-- Null for USDC, and for a refund requested while none of the payments was converted yet (no
-- fresh rate then: docs/currencies.md), which returns USDC and nothing Remit can say in the currency.
alter table app.refunds add constraint refunds_amount_in_currency_of_currency
  check (currency <> 'USDC' or amount_in_currency is null);
