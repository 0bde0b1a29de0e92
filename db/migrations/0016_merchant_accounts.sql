-- Merchant accounts (issue 15): a merchant whose email is verified (claimed) acts only through
-- its API keys; keys, claim tokens and payout wallets belong to the account; every management
-- action is audited. Secrets are stored only as SHA-256 hashes (keys and claim tokens carry
-- 256 bits of randomness, so a fast hash is enough: nothing to brute-force).

-- Claimed: the email was verified (a claim link opened and confirmed, or the operator's
-- `remit merchants add`). From then on the email is usable only with one of its keys.
alter table app.merchants add column claimed_at timestamptz;
-- The merchant's registered business name (the operator's --name), reserved: no other merchant
-- may put it on an invoice or a link. name_key is its normalised form (domain/merchantName.ts).
alter table app.merchants add column name text check (name is null or char_length(name) between 1 and 200);
alter table app.merchants add column name_key text unique;
alter table app.merchants add constraint merchants_name_pair check ((name is null) = (name_key is null));

create table app.api_keys (
  id uuid primary key default gen_random_uuid(),
  merchant_id uuid not null references app.merchants (id),
  -- sha256 hex of the whole key; the key itself is shown once and never stored.
  key_hash text not null unique check (key_hash ~ '^[0-9a-f]{64}$'),
  -- Its last four characters, so the merchant can tell keys apart in a list.
  last_four text not null check (char_length(last_four) = 4),
  name text not null check (char_length(name) between 1 and 100),
  scope text not null check (scope in ('write', 'read')),
  created_at timestamptz not null default now(),
  -- Updated at most once a minute per key (api/auth/resolveIdentity.ts): not a write per request.
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_keys_merchant on app.api_keys (merchant_id, created_at);

-- One-time claim links: the token only as a hash; 30 minutes; used once.
create table app.claim_tokens (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index claim_tokens_email on app.claim_tokens (email, created_at);

-- Where a claimed merchant's byo invoices and links may send money. Removing one keeps its row.
create table app.payout_wallets (
  id uuid primary key default gen_random_uuid(),
  merchant_id uuid not null references app.merchants (id),
  address text not null check (address ~ '^0x[0-9a-fA-F]{40}$'),
  created_at timestamptz not null default now(),
  removed_at timestamptz
);
create unique index payout_wallets_active on app.payout_wallets (merchant_id, lower(address))
  where removed_at is null;

-- Every management action: who (the key, or none: open mode, the claim page, the operator),
-- what, on what, in which request. Append-only.
create table app.audit_log (
  id bigint generated always as identity primary key,
  merchant_id uuid not null references app.merchants (id),
  key_id uuid references app.api_keys (id),
  -- 'key', 'anonymous' (open mode), 'claim' (the claim page), 'operator' (the CLI).
  actor text not null check (actor in ('key', 'anonymous', 'claim', 'operator')),
  action text not null,
  target text not null,
  request_id text,
  created_at timestamptz not null default now(),
  check ((actor = 'key') = (key_id is not null))
);
create index audit_log_merchant on app.audit_log (merchant_id, id desc);
create trigger audit_log_append_only before update or delete on app.audit_log
  for each row execute function app.reject_any_change();
create trigger audit_log_no_truncate before truncate on app.audit_log
  for each statement execute function app.reject_any_change();

-- Emails that need more than a row reference: `details` (plain, e.g. the wallet added) and
-- `sealed` (a secret the email carries, the claim link: sealed like webhook secrets, cleared
-- once sent).
alter table app.emails add column details jsonb;
alter table app.emails add column sealed text check (sealed is null or sealed like 'enc:v1:%');

-- Idempotency keys belong to a merchant and expire after 24 hours (api/createIdempotently.ts):
-- a guessed key never replays another merchant's answer, and a stale one can be reused.
alter table app.idempotency_keys add column merchant_id uuid references app.merchants (id);
update app.idempotency_keys k set merchant_id = coalesce(
  (select i.merchant_id from app.invoices i where i.id = k.invoice_id),
  (select l.merchant_id from app.payment_links l where l.id = k.link_id)
);
delete from app.idempotency_keys where merchant_id is null;
alter table app.idempotency_keys alter column merchant_id set not null;
alter table app.idempotency_keys drop constraint idempotency_keys_pkey;
alter table app.idempotency_keys add primary key (merchant_id, operation, key);
