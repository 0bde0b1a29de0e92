-- Settings changes are audited with what changed (docs/dashboard.md "Settings"), and a new
-- notification email takes effect only once a link sent to it is followed: a stolen dashboard
-- session cannot quietly redirect the merchant's payment notices.

-- What an entry changed, old -> new: {"field": {"from": …, "to": …}} (settings.updated).
alter table app.audit_log add column details jsonb;

-- A notification email waiting for its owner to follow the link sent to it. Payment notices go
-- to notification_email (or the account email) meanwhile. The link's token is stored only as
-- its SHA-256; it expires, works once, and a newer change replaces it.
alter table app.merchant_settings add column pending_notification_email text
  check (pending_notification_email is null or char_length(pending_notification_email) between 3 and 254);
alter table app.merchant_settings add column pending_token_hash text unique
  check (pending_token_hash is null or pending_token_hash ~ '^[0-9a-f]{64}$');
alter table app.merchant_settings add column pending_expires_at timestamptz;
alter table app.merchant_settings add constraint merchant_settings_pending_complete check (
  (pending_notification_email is null) = (pending_token_hash is null)
  and (pending_token_hash is null) = (pending_expires_at is null)
);
