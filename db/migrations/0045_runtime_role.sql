-- Issue 48. With two roles (MIGRATION_DATABASE_URL, db/runtimeRole.ts) the indexer's tables are
-- the owner's, and only a table's owner may create a trigger on it: the worker, running as the
-- runtime role, installs the reconcile trigger through this function, which runs as its owner
-- (the one thing it does: that trigger on that schema's transfer table). With one role nothing
-- changes. The search path is pinned, as for any SECURITY DEFINER function.
alter function app.install_transfer_trigger(text) security definer set search_path = pg_catalog, app;
revoke execute on function app.install_transfer_trigger(text) from public;
