import { type Command, Option } from "commander";
import { formatUsdc, parseTypedUsdc } from "../domain/money.ts";
import { type ApiTarget, callApi } from "./api.ts";
import { CliError, EXIT, printJson } from "./io.ts";

/**
 * What the CLI's resource commands are made of: the options every command that calls the API
 * takes, the list command (pages, filters, a table) and the printing of an answer.
 */

/** What every command that calls the API takes. */
export type ApiOptions = { api: string; apiKey?: string; json?: boolean };
export type Row = Record<string, unknown>;
export type Page = { data: Row[]; next_cursor: string | null };

/** Adds --api, --api-key and --json: the options `main.ts` builds, passed in to share them. */
export type CommonOptions = (command: Command) => Command;

export const targetOf = (options: ApiOptions): ApiTarget => ({
  url: options.api,
  ...(options.apiKey ? { apiKey: options.apiKey } : {}),
});

export const id = (value: string) => encodeURIComponent(value);

/** A typed amount (`100`, `19.5`) as the API's decimal string; the one parser of typed amounts. */
export function typedAmount(flag: string, typed: string): string {
  const parsed = parseTypedUsdc(typed);
  if (!parsed.ok) throw new CliError(`${flag}: ${parsed.message}`, EXIT.usage);
  return formatUsdc(parsed.units);
}

/** A filter flag of a list: `--status <status>` sent as `?status=`. */
export type Filter = { flag: string; param: string; description: string; amount?: boolean };
export const filter = (param: string, description: string, amount = false): Filter => ({
  flag: `--${param.replaceAll("_", "-")} <value>`,
  param,
  description,
  amount,
});

/**
 * A list's time range, `--{name}-from` and `--{name}-to`, as the API reads every such pair: a
 * date or an ISO time, both ends included, a bare date as its end meaning the whole day.
 */
export const timeRange = (name: string): Filter[] => [
  filter(`${name}_from`, `${name} on or after: YYYY-MM-DD or an ISO time`),
  filter(`${name}_to`, `${name} on or before: YYYY-MM-DD (the whole day) or an ISO time`),
];
const camel = (param: string) => param.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

/** Columns of the readable table: a header and how to read it from a row. */
export type Column = [header: string, read: (row: Row) => unknown];
export const field =
  (name: string): Column[1] =>
  (row) =>
    row[name];

/** Rows as aligned columns; empty values as "-". */
export function table(rows: Row[], columns: Column[]): string {
  const cells = rows.map((row) =>
    columns.map(([, read]) => {
      const value = read(row);
      return value === null || value === undefined || value === "" ? "-" : String(value);
    }),
  );
  const headers = columns.map(([header]) => header);
  const widths = headers.map((h, i) =>
    Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)),
  );
  const line = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), ...cells.map(line)].join("\n");
}

/**
 * A list command: one page (`--limit`, `--cursor`) or every page (`--all`, following
 * `next_cursor`), filtered. `--json`: the API's page unchanged, or with `--all` every row in one
 * `{data, next_cursor: null}`. Otherwise a table, and on stderr how to ask for the next page.
 */
export function listCommand(
  parent: Command,
  common: CommonOptions,
  spec: { name: string; path: string; what: string; filters: Filter[]; columns: Column[] },
): void {
  const command = parent
    .command(spec.name)
    .description(`${spec.what} (GET ${spec.path}), newest first`)
    .option("--limit <n>", "rows a page, 1–200 (the API's default: 50)")
    .option("--cursor <cursor>", "start at this page: a previous page's next_cursor")
    .option("--all", "every page, following next_cursor to the end");
  for (const f of spec.filters) command.addOption(new Option(f.flag, f.description));
  common(command).action(async (options: ApiOptions & Record<string, string | boolean>) => {
    const query = new URLSearchParams();
    if (typeof options.limit === "string") query.set("limit", options.limit);
    for (const f of spec.filters) {
      const value = options[camel(f.param)];
      if (typeof value !== "string") continue;
      query.set(
        f.param,
        f.amount ? typedAmount(`--${f.param.replaceAll("_", "-")}`, value) : value,
      );
    }
    let cursor = typeof options.cursor === "string" ? options.cursor : null;
    const rows: Row[] = [];
    let next: string | null = null;
    do {
      const params = new URLSearchParams(query);
      if (cursor) params.set("cursor", cursor);
      const qs = params.toString();
      const answer = await callApi(targetOf(options), `${spec.path}${qs ? `?${qs}` : ""}`);
      const page = answer.body as Page;
      if (!options.all && options.json) return printJson(answer.text);
      rows.push(...page.data);
      next = page.next_cursor;
      cursor = next;
    } while (options.all && cursor);
    if (options.json) return printJson({ data: rows, next_cursor: null });
    if (rows.length === 0) process.stderr.write("no rows\n");
    else process.stdout.write(`${table(rows, spec.columns)}\n`);
    if (next) process.stderr.write(`more: --cursor ${next} (or --all)\n`);
  });
}

/** A command that prints the API's answer: JSON with --json, else `readable(body)`. */
export function printAnswer(
  options: ApiOptions,
  text: string,
  readable: (body: Row) => string,
): void {
  if (options.json) printJson(text);
  else process.stdout.write(`${readable(JSON.parse(text) as Row)}\n`);
}

/**
 * POSTs to the API's `path` (with `body` as JSON when there is one) and prints its answer as
 * printAnswer does: the commands that create or act on one thing (void, run, test, …).
 */
export async function postAndPrint(
  options: ApiOptions,
  path: string,
  readable: (body: Row) => string,
  body?: unknown,
): Promise<void> {
  const answer = await callApi(
    targetOf(options),
    path,
    body === undefined
      ? { method: "POST" }
      : {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        },
  );
  printAnswer(options, answer.text, readable);
}

/**
 * An unpaged list's answer (webhook endpoints, credit notes): the API's JSON with --json, else
 * its rows, found under `key`, as a table; `none` on stderr when there are none.
 */
export function printRows(
  options: ApiOptions,
  answer: { text: string; body: unknown },
  key: string,
  columns: Column[],
  none: string,
): void {
  const rows = (answer.body as Record<string, Row[]>)[key] ?? [];
  if (options.json) printJson(answer.text);
  else if (rows.length === 0) process.stderr.write(`${none}\n`);
  else process.stdout.write(`${table(rows, columns)}\n`);
}

/** The creation time column every list shows. */
export const created = field("created_at");
