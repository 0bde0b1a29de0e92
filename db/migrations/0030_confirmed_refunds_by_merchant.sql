-- Confirmed refunds are money that left: the payments list and export show each one beside the
-- payments (keyset-walked by confirmation time, then id) and the dashboard overview sums a
-- month of them. One merchant's confirmed refunds in that order: one index range.
create index refunds_merchant_confirmed on app.refunds (merchant_id, confirmed_at, id)
  where status = 'confirmed';
