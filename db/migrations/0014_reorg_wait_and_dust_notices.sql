-- What the reconcile job remembers between runs (issue 16 items 4 and 5).

-- The amount received the last payment event told (its paid_amount): dust that moves the amount
-- less than EXCESS_DUST_THRESHOLD away from it, without changing the status, is coalesced into
-- the next event instead of producing an email and a webhook of its own. Every amount recorded
-- so far was told.
alter table app.payment_state add column notified_received bigint not null default 0;
update app.payment_state set notified_received = received;

-- Since when counted transfers have been missing from the index while the chain still has their
-- transaction mined: reconcile waits for the index at most LOST_TRANSFER_WAIT_MS from then
-- (domain/lostTransfers.ts), so an address is never stuck. Null when nothing is missing.
alter table app.payment_state add column lost_since timestamptz;
