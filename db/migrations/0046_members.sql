-- A team, not a shared password (issue 46, docs/members.md): a merchant's members, each with a
-- role (domain/accessPolicy.ts declares what each may do), invited by a one-time email link.

-- A member of a merchant's team. The account's first email is its `owner` (a trigger makes that
-- member with every merchant; existing merchants are backfilled below). `invited` until its
-- invitation link is followed; `removed` ends its sessions and keys at once (both are looked up
-- through this row on every request).
create table app.members (
  id uuid primary key default gen_random_uuid(),
  merchant_id uuid not null references app.merchants (id),
  -- Lower-case, as merchants' emails are.
  email text not null check (char_length(email) between 3 and 254),
  role text not null check (role in ('owner', 'admin', 'developer', 'accountant', 'support')),
  status text not null check (status in ('invited', 'active', 'removed')),
  invited_by uuid references app.members (id),
  created_at timestamptz not null default now(),
  joined_at timestamptz,
  removed_at timestamptz,
  check ((status = 'removed') = (removed_at is not null)),
  check ((status = 'invited') = (joined_at is null) or status = 'removed')
);
-- One live membership per address and merchant (a removed member may be invited again).
create unique index members_merchant_email on app.members (merchant_id, email)
  where status <> 'removed';
create index members_email on app.members (email) where status = 'active';

create function app.merchant_owner_member() returns trigger language plpgsql as $$
begin
  insert into app.members (merchant_id, email, role, status, joined_at)
  values (new.id, new.email, 'owner', 'active', now());
  return new;
end
$$;
create trigger merchants_owner_member after insert on app.merchants
  for each row execute function app.merchant_owner_member();

insert into app.members (merchant_id, email, role, status, joined_at, created_at)
  select id, email, 'owner', 'active', created_at, created_at from app.merchants;

-- An invitation's one-time link: the token only as its SHA-256 (it travels sealed in its email,
-- cleared once sent, as a claim link does); expires; used once.
create table app.member_invitations (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references app.members (id),
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index member_invitations_member on app.member_invitations (member_id);

-- The member who made each key, and the role a key is limited to (null: a key made before
-- roles, or by a key without one: whatever its scope allows, as before). Existing keys were
-- made by their merchant's owner.
alter table app.api_keys add column member_id uuid references app.members (id);
alter table app.api_keys add column role text
  check (role is null or role in ('owner', 'admin', 'developer', 'accountant', 'support'));
update app.api_keys k set member_id = m.id from app.members m
  where m.merchant_id = k.merchant_id and m.role = 'owner';
alter table app.api_keys alter column member_id set not null;
create index api_keys_member on app.api_keys (member_id);

-- The member signed in: every session is one member's.
alter table app.dashboard_sessions add column member_id uuid references app.members (id);
update app.dashboard_sessions s set member_id = m.id from app.members m
  where m.merchant_id = s.merchant_id and m.role = 'owner';
alter table app.dashboard_sessions alter column member_id set not null;
create index dashboard_sessions_member on app.dashboard_sessions (member_id);

-- Who did what: the member behind each audit entry (its session, or the key's maker).
alter table app.audit_log add column member_id uuid references app.members (id);
create index audit_log_member on app.audit_log (merchant_id, member_id, id desc);

