-- The merchant's web dashboard (issue 19 item 3, docs/dashboard.md).

-- One-time email links serve two purposes: claiming an account (the API's claim flow) and
-- signing in to the dashboard. Same table, same mechanics (hash only, 30 minutes, used once,
-- at most 5 an hour per address, counted per purpose); a link of one purpose never works
-- for the other.
alter table app.claim_tokens add column purpose text not null default 'claim'
  check (purpose in ('claim', 'dashboard_sign_in'));
drop index app.claim_tokens_email;
create index claim_tokens_email on app.claim_tokens (email, purpose, created_at);

-- A signed-in dashboard browser. The cookie's token (256 bits) is stored only as its SHA-256;
-- the CSRF token is derived from it (never stored). Ended by sign-out (the row is deleted),
-- by idle time (last_seen_at) or at expires_at, whichever comes first.
create table app.dashboard_sessions (
  id uuid primary key default gen_random_uuid(),
  merchant_id uuid not null references app.merchants (id),
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index dashboard_sessions_merchant on app.dashboard_sessions (merchant_id);
create index dashboard_sessions_expiry on app.dashboard_sessions (expires_at);

-- What a signed-in merchant does in the dashboard is audited as actor 'dashboard'.
alter table app.audit_log drop constraint audit_log_actor_check;
alter table app.audit_log add constraint audit_log_actor_check
  check (actor in ('key', 'anonymous', 'claim', 'operator', 'dashboard'));

-- The dashboard's settings of a merchant: the name and address its invoice form starts with,
-- and where its payment notices go instead of its account email (null: the account email).
create table app.merchant_settings (
  merchant_id uuid primary key references app.merchants (id),
  default_name text check (default_name is null or char_length(default_name) between 1 and 200),
  default_address text check (default_address is null or char_length(default_address) between 1 and 1000),
  notification_email text check (notification_email is null or char_length(notification_email) between 3 and 254),
  updated_at timestamptz not null default now()
);
