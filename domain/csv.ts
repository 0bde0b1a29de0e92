/**
 * CSV as RFC 4180 has it, for the accountants' exports: fields separated by commas, records
 * ended by CRLF, a field holding a comma, a double quote, CR or LF enclosed in double quotes
 * with its own double quotes doubled.
 *
 * Every cell is also made inert for spreadsheets (CSV injection, OWASP): a cell beginning with
 * `=`, `+`, `-`, `@`, a tab or a carriage return would be taken for a formula by Excel, LibreOffice
 * or Google Sheets (`=HYPERLINK(…)` leaking the sheet, `=cmd|…` running a program), so such a
 * cell gets a leading apostrophe, which the spreadsheets show as text and hide. Amounts never
 * need it: they are non-negative decimals (`150.00`), and dates and hashes begin with digits.
 */

/** Characters that make a spreadsheet read a cell as a formula when they come first. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Characters that need the field enclosed in double quotes. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One field, neutralised and quoted as needed.
 *
 * @example csvCell("Globex, Inc.") // "\"Globex, Inc.\""
 * @example csvCell("=HYPERLINK(\"x\")") // "\"'=HYPERLINK(\"\"x\"\")\""
 */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return "";
  const inert = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(inert) ? `"${inert.replaceAll('"', '""')}"` : inert;
}

/**
 * One record, CRLF-terminated.
 *
 * @example csvRow(["a", "b,c"]) // "a,\"b,c\"\r\n"
 */
export function csvRow(cells: readonly (string | null | undefined)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/**
 * The byte order mark the exports begin with by default: without it Excel reads a UTF-8 CSV
 * as the machine's legacy code page and garbles "Ünïcödé — 日本語"; with it Excel, LibreOffice
 * and Google Sheets read UTF-8 (programs: csv-parse's `bom: true`, Python's `utf-8-sig`).
 */
export const CSV_BOM = "\uFEFF";

/**
 * A moment as spreadsheets read a date and time: `YYYY-MM-DD HH:MM:SS`, in UTC (the exports say
 * so in docs/api.md), whole seconds. ISO 8601's `T…Z` with milliseconds is text to Excel.
 *
 * @example csvTime(new Date("2026-11-26T12:45:36.000Z")) // "2026-11-26 12:45:36"
 */
export function csvTime(at: Date): string {
  return at.toISOString().slice(0, 19).replace("T", " ");
}

/**
 * A name as a file name's part: letters and digits of any accent folded to ASCII, lower case,
 * everything else one hyphen, at most 40 characters; "" when nothing is left.
 *
 * @example fileNamePart("Acme Ltd.") // "acme-ltd"
 * @example fileNamePart("Café Größe") // "cafe-grosse"
 */
export function fileNamePart(name: string): string {
  return name
    .replaceAll("ß", "ss")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
}

/**
 * An export's file name: who, what and the dates it covers, so downloads sort and are told
 * apart: `acme-ltd_invoices_2026-11-01_2026-11-30.csv`. The merchant is its first name that
 * leaves a file name part (registered name, invoices' default name, the email's domain); no
 * `from`: `all`; no `to`: today (UTC). The receivables report covers no dates but the day it is
 * counted on: `acme-ltd_receivables_2026-11-30.csv`.
 *
 * @example exportFileName(["Acme Ltd"], "invoices", "2026-11-01", undefined, "2026-11-30") // "acme-ltd_invoices_2026-11-01_2026-11-30.csv"
 * @example exportFileName(["Acme Ltd"], "receivables", undefined, undefined, "2026-11-30") // "acme-ltd_receivables_2026-11-30.csv"
 */
export function exportFileName(
  names: readonly (string | null)[],
  what: "invoices" | "payments" | "receivables",
  from: string | undefined,
  to: string | undefined,
  today: string,
): string {
  const who = names.map((n) => (n ? fileNamePart(n) : "")).find(Boolean) ?? "remit";
  if (what === "receivables") return `${who}_receivables_${today}.csv`;
  return `${who}_${what}_${from ? from.slice(0, 10) : "all"}_${to ? to.slice(0, 10) : today}.csv`;
}
