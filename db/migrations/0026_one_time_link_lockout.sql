-- One-time links (claim, dashboard sign-in) that a stranger cannot use to lock their owner out
-- (docs/api.md "Claiming an account by email"). New links are capped per address AND per
-- (address, client IP); past either cap the newest live link is emailed again instead of a new
-- one, at most once per few minutes per address, so a flood stays bounded and the owner's own
-- request still puts a working link in its inbox.

-- The requesting client, as an HMAC of its address under WEBHOOK_SECRET_KEY (counted, never
-- shown: a bare hash of an IPv4 address is reversed by trying them all).
alter table app.claim_tokens add column client_hash text
  check (client_hash is null or client_hash ~ '^[0-9a-f]{64}$');
-- The token itself, sealed like webhook secrets (AES-256-GCM under WEBHOOK_SECRET_KEY), kept
-- only while the link may be emailed again: cleared once used or expired. A dump without the
-- key still holds no usable link; lookups stay by token_hash.
alter table app.claim_tokens add column sealed text
  check (sealed is null or sealed like 'enc:v1:%');
-- When this link was last emailed beyond the caps (a re-send, or a fresh link when none was
-- live): at most one such email per address and purpose every few minutes.
alter table app.claim_tokens add column over_cap_sent_at timestamptz;

create index claim_tokens_client on app.claim_tokens (email, purpose, client_hash, created_at);
-- The few rows still holding a sealed token, for clearing them once expired.
create index claim_tokens_sealed on app.claim_tokens (expires_at) where sealed is not null;
