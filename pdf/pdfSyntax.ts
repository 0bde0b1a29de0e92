/**
 * Just enough of PDF's object syntax (ISO 32000-1 §7.3) to read and extend the dictionaries of
 * a PDF that pdfkit wrote: a dictionary's top-level entries, strings, names and dates. The
 * sources are "binary" strings (one char per byte, latin1), as the file's bytes are.
 */

const WHITESPACE = /[\0\t\n\f\r ]/;
const DELIMITER = /[()<>[\]{}/%]/;

function skipSpace(source: string, start: number): number {
  let at = start;
  while (at < source.length) {
    const char = source[at] as string;
    if (WHITESPACE.test(char)) at++;
    else if (char === "%") while (at < source.length && !/[\r\n]/.test(source[at] as string)) at++;
    else break;
  }
  return at;
}

function regularEnd(source: string, start: number): number {
  let at = start;
  while (at < source.length && !WHITESPACE.test(source[at] as string)) {
    if (DELIMITER.test(source[at] as string)) break;
    at++;
  }
  return at;
}

function literalStringEnd(source: string, start: number): number {
  let depth = 0;
  for (let at = start; at < source.length; at++) {
    const char = source[at];
    if (char === "\\") at++;
    else if (char === "(") depth++;
    else if (char === ")" && --depth === 0) return at + 1;
  }
  throw new SyntaxError("unterminated PDF string");
}

/**
 * Where the value starting at `start` ends: a dictionary, array, string, name, number, or a
 * reference (`12 0 R`).
 */
export function valueEnd(source: string, start: number): number {
  const at = skipSpace(source, start);
  if (source.startsWith("<<", at)) {
    let next = skipSpace(source, at + 2);
    while (!source.startsWith(">>", next)) next = skipSpace(source, valueEnd(source, next));
    return next + 2;
  }
  const char = source[at];
  if (char === "[") {
    let next = skipSpace(source, at + 1);
    while (source[next] !== "]") {
      if (next >= source.length) throw new SyntaxError("unterminated PDF array");
      next = skipSpace(source, valueEnd(source, next));
    }
    return next + 1;
  }
  if (char === "(") return literalStringEnd(source, at);
  if (char === "<") return source.indexOf(">", at) + 1;
  if (char === "/") return regularEnd(source, at + 1);
  const end = regularEnd(source, at);
  // An indirect reference is three tokens: "12 0 R".
  const reference = /^\s+\d+\s+R(?![^\0\t\n\f\r ()<>[\]{}/%])/.exec(source.slice(end, end + 24));
  return reference ? end + reference[0].length : end;
}

/**
 * A dictionary's top-level entries, key (without its slash) → the value's source, in order.
 *
 * @example dictionaryEntries("<< /Type /Catalog /Pages 1 0 R >>") // Map { "Type" => "/Catalog", "Pages" => "1 0 R" }
 */
export function dictionaryEntries(source: string): Map<string, string> {
  const entries = new Map<string, string>();
  let at = skipSpace(source, 0);
  if (!source.startsWith("<<", at)) throw new SyntaxError("not a PDF dictionary");
  at = skipSpace(source, at + 2);
  while (!source.startsWith(">>", at)) {
    if (source[at] !== "/") throw new SyntaxError(`a PDF dictionary key expected at ${at}`);
    const keyEnd = regularEnd(source, at + 1);
    const valueStart = skipSpace(source, keyEnd);
    const end = valueEnd(source, valueStart);
    entries.set(source.slice(at + 1, keyEnd), source.slice(valueStart, end));
    at = skipSpace(source, end);
  }
  return entries;
}

/** A dictionary written from its entries (values as PDF source). */
export function dictionary(entries: Iterable<[string, string]>): string {
  return `<<\n${[...entries].map(([key, value]) => `/${key} ${value}`).join("\n")}\n>>`;
}

/** The object number of a reference's source ("12 0 R" → 12), or undefined. */
export function referenceNumber(value: string | undefined): number | undefined {
  const match = value ? /^(\d+)\s+\d+\s+R$/.exec(value.trim()) : null;
  return match ? Number(match[1]) : undefined;
}

const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };

/** A PDF string's text (literal or hexadecimal; UTF-16BE with its mark, or PDFDocEncoding as latin1). */
export function decodeString(source: string): string {
  const value = source.trim();
  let bytes: string;
  if (value.startsWith("<")) {
    const hex = value.slice(1, -1).replace(/\s/g, "");
    bytes = (hex.length % 2 ? `${hex}0` : hex).replace(/../g, (pair) =>
      String.fromCharCode(Number.parseInt(pair, 16)),
    );
  } else {
    bytes = value
      .slice(1, -1)
      .replace(/\\(?:([0-7]{1,3})|(\r\n|\r|\n)|(.))/gs, (_, octal, newline, char) => {
        if (octal) return String.fromCharCode(Number.parseInt(octal, 8) & 0xff);
        if (newline) return "";
        return ESCAPES[char] ?? char;
      });
  }
  if (bytes.startsWith("\xfe\xff"))
    return Buffer.from(bytes.slice(2), "latin1").swap16().toString("utf16le");
  return bytes;
}

/** A text as a PDF string: literal when ASCII, else UTF-16BE with its byte-order mark, in hex. */
export function encodeString(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is exactly \x00–\x7f.
  if (/^[\x00-\x7f]*$/.test(text)) return `(${text.replace(/[\\()]/g, "\\$&")})`;
  const utf16 = Buffer.from(`\ufeff${text}`, "utf16le").swap16();
  return `<${utf16.toString("hex").toUpperCase()}>`;
}

/** A name with the characters outside `!`–`~` (and `#`) written as `#xx` ("text/xml" → "/text#2Fxml"). */
export function encodeName(name: string): string {
  return `/${name.replace(/[^!-~]|[#/()<>[\]{}%]/g, (char) => `#${char.charCodeAt(0).toString(16).padStart(2, "0").toUpperCase()}`)}`;
}

/**
 * A PDF date ("D:20261101120000Z", "D:20261101120000+01'00'") as XMP writes it
 * ("2026-11-01T12:00:00Z"), or undefined when it is not one.
 */
export function pdfDateToIso(text: string): string | undefined {
  const match =
    /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:(Z)|([+-])(\d{2})'?(\d{2})?'?)?$/.exec(
      text.trim(),
    );
  if (!match) return undefined;
  const [, year, month = "01", day = "01", hour, minute = "00", second = "00"] = match;
  const date = `${year}-${month}-${day}`;
  if (hour === undefined) return date;
  const zone = match[7] ? "Z" : match[8] ? `${match[8]}${match[9]}:${match[10] ?? "00"}` : "";
  return `${date}T${hour}:${minute}:${second}${zone}`;
}

/** A date as a PDF date string's text, in UTC: "D:20261101120000Z". */
export function pdfDate(date: Date): string {
  return `D:${date.toISOString().replace(/[-:T]/g, "").slice(0, 14)}Z`;
}
