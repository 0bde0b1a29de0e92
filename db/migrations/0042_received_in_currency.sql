-- Issue 45. What the counted payments to a currency-priced invoice or link are worth in its
-- currency (6 decimals), each converted once at its block's rate or the quote it paid
-- (app/payments/convertOwnerPayments.ts); null for one priced in USDC, whose `received` is
-- already in its unit. A payment no usable rate is known for yet counts for nothing here until
-- it is converted. Derived by the reconcile job from the indexed transfers, like `received`.
alter table app.payment_state add column received_in_currency bigint;
