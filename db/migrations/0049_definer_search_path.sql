-- A SECURITY DEFINER function runs as its owner, and Postgres looks up a relation name in the
-- caller's temporary schema first unless the function's search path names pg_temp. In
-- app.search_term_keys (0048) the name pg_stats would then find a temporary view the caller made,
-- and any function that view calls would run as the owner: the runtime role could, for one,
-- switch off the triggers that keep the invoice record append-only (it holds TEMP on the
-- database unless revoked). pg_temp goes last, as the PostgreSQL documentation asks ("Writing
-- SECURITY DEFINER Functions Safely"); install_transfer_trigger (0045) names only qualified
-- relations, and gets the same path. test/security/definerFunctionShadowedByTempView.test.ts.
alter function app.search_term_keys(uuid, text) set search_path = pg_catalog, app, pg_temp;
alter function app.install_transfer_trigger(text) set search_path = pg_catalog, app, pg_temp;
