-- Who is asking for the money: shown on the checkout (a payer should never pay an anonymous
-- request). Given with the link, or the name on the merchant's latest invoice; null when
-- neither is known (links made before this column, or by a merchant with no invoice yet).
alter table app.payment_links add column merchant_name text
  check (merchant_name is null or char_length(merchant_name) between 1 and 200);
