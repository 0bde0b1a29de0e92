import pg from "pg";

/**
 * Two roles on an operator's Postgres (docs/operations.md "Production on your Postgres"): the
 * owner, which owns the database and its schemas and runs the migrations (and the indexer, whose
 * Ponder creates its tables at each new schema), and the runtime role of the API and the worker,
 * which logs in and holds nothing but what the grants below give it. The owner alone can alter a
 * table, disable a trigger or truncate: a leaked runtime credential cannot undo the append-only
 * record (spec §2.3), which the triggers then guard against the application itself.
 */

/** Append-only records: the runtime role inserts and reads them, never deletes them. */
const APPEND_ONLY = [
  "app.audit_log",
  "app.credit_note_lines",
  "app.credit_note_pdfs",
  "app.credit_notes",
  "app.invoice_line_items",
  "app.invoice_pdfs",
  "app.invoices",
  "app.payment_conversions",
  "app.payment_links",
  "app.rate_quotes",
] as const;

/**
 * The columns of an append-only record the service may change (what its trigger allows): an
 * invoice's status, sending, voiding and credited sum (kept by the credit notes' trigger); a
 * link's status. Every other column of these tables cannot even be named in an UPDATE.
 */
const UPDATABLE_COLUMNS: Partial<Record<(typeof APPEND_ONLY)[number], readonly string[]>> = {
  "app.invoices": ["status", "sent_at", "voided_at", "credited_amount"],
  "app.payment_links": ["status"],
};

/** A string as an SQL literal (its quotes doubled). */
const literal = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/** A role name as an SQL identifier (quoted, its quotes doubled). */
export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * The grants the runtime role `runtime` needs, run by the owner `owner` after every migration
 * (idempotent): schema usage; reads and writes of the service's tables, but no DELETE and only
 * the allowed columns' UPDATE on the append-only ones; no TRUNCATE, no DDL, no ownership;
 * graphile-worker's queue; and, by default privileges, reading the tables the owner (as the
 * indexer) creates later in new indexer schemas.
 */
export function runtimeGrantsSql(owner: string, runtime: string): string {
  const r = quoteIdent(runtime);
  const o = quoteIdent(owner);
  const statements = [
    `grant usage on schema app, graphile_worker to ${r}`,
    `revoke all on all tables in schema app from ${r}`,
    `grant select, insert, update, delete on all tables in schema app to ${r}`,
    ...APPEND_ONLY.flatMap((table) => {
      const columns = UPDATABLE_COLUMNS[table];
      return [
        `revoke update, delete on ${table} from ${r}`,
        ...(columns ? [`grant update (${columns.join(", ")}) on ${table} to ${r}`] : []),
      ];
    }),
    `grant usage, select on all sequences in schema app, graphile_worker to ${r}`,
    `grant execute on all functions in schema app, graphile_worker to ${r}`,
    `grant select, insert, update, delete on all tables in schema graphile_worker to ${r}`,
    // graphile-worker keeps row-level security on its private tables (no policy: only their
    // owner sees a row); the runtime role is the queue's user, so it gets a policy of its own.
    `do $$ declare t record; begin
      for t in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'graphile_worker' and c.relkind = 'r' and c.relrowsecurity
          and not exists (select 1 from pg_policies p where p.schemaname = 'graphile_worker'
            and p.tablename = c.relname and p.policyname = ${literal(`remit_runtime_${runtime}`)})
      loop
        execute format('create policy %I on graphile_worker.%I to ${r.replaceAll("'", "''")} using (true) with check (true)',
          ${literal(`remit_runtime_${runtime}`)}, t.relname);
      end loop;
    end $$`,
    // The indexer's schemas are made by the owner at each new build: their tables are read (and
    // the transfer trigger installed by app.install_transfer_trigger, the owner's function):
    // those there already, and by default privileges those to come.
    `do $$ declare s record; begin
      for s in select n.nspname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relname = 'usdc_transfer' and c.relkind = 'r'
      loop
        execute format('grant usage on schema %I to ${r.replaceAll("'", "''")}', s.nspname);
        execute format('grant select on all tables in schema %I to ${r.replaceAll("'", "''")}', s.nspname);
      end loop;
    end $$`,
    `alter default privileges for role ${o} grant usage on schemas to ${r}`,
    `alter default privileges for role ${o} grant select on tables to ${r}`,
  ];
  return `${statements.join(";\n")};\n`;
}

/**
 * What an operator runs once, as a superuser, to create both roles and the database (printed by
 * `remit db roles`; docs/operations.md). The passwords are placeholders to replace.
 */
export function rolesSql(names: { owner: string; runtime: string; database: string }): string {
  const o = quoteIdent(names.owner);
  const r = quoteIdent(names.runtime);
  return [
    `create role ${o} login password 'change-me-owner';`,
    `create role ${r} login password 'change-me-runtime';`,
    `create database ${quoteIdent(names.database)} owner ${o};`,
    `-- Nothing else for ${names.runtime}: the migrations (run as ${names.owner}) grant what it needs.`,
    `revoke all on database ${quoteIdent(names.database)} from public;`,
    `grant connect on database ${quoteIdent(names.database)} to ${r};`,
    "",
  ].join("\n");
}

/** The user a connection string logs in as. */
export const userOf = (url: string): string => decodeURIComponent(new URL(url).username);

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Grants the runtime role of `runtimeUrl` what it needs, as the owner of `ownerUrl`. */
export async function grantRuntimeRole(ownerUrl: string, runtimeUrl: string): Promise<void> {
  await withClient(ownerUrl, async (client) => {
    const { rows } = await client.query<{ owner: string }>("select current_user as owner");
    await client.query(runtimeGrantsSql(rows[0]?.owner ?? userOf(ownerUrl), userOf(runtimeUrl)));
  });
}

/**
 * Why the role of `url` holds more than a runtime role should (a superuser, or the owner of the
 * service's tables), or null: in mainnet mode the service refuses to run as one unless
 * ALLOW_DATABASE_OWNER=true.
 */
export async function databaseRoleProblem(url: string): Promise<string | null> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ user: string; superuser: boolean; owns: boolean }>(
      `select current_user as user,
              (select rolsuper from pg_roles where rolname = current_user) as superuser,
              exists (select 1 from pg_tables where schemaname = 'app' and tableowner = current_user) as owns`,
    );
    const row = rows[0];
    if (!row) return null;
    if (row.superuser)
      return `DATABASE_URL logs in as ${row.user}, a superuser: it could rewrite or delete the invoice record`;
    if (row.owns)
      return `DATABASE_URL logs in as ${row.user}, which owns the service's tables: it could disable the triggers that keep the invoice record append-only`;
    return null;
  });
}
