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
