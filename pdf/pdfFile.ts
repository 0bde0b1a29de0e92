import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import { dictionary, dictionaryEntries, referenceNumber, valueEnd } from "./pdfSyntax.ts";

/**
 * A PDF with a classic cross-reference table (what pdfkit writes), read far enough to find its
 * objects, and extended by an incremental update (ISO 32000-1 §7.5.6): new objects and new
 * versions of old ones appended after the original bytes, which stay as they are.
 */
export type PdfFile = {
  bytes: Uint8Array;
  /** The bytes as a latin1 string, one char per byte. */
  source: string;
  /** The newest trailer's entries. */
  trailer: Map<string, string>;
  startxref: number;
  /** Every object's offset, by number (the newest version of each). */
  offsets: Map<number, number>;
};

/** Reads the cross-reference tables (the newest first, then each /Prev) and the trailer. */
export function readPdf(bytes: Uint8Array): PdfFile {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const startxrefMatch = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(source.slice(-64));
  if (!startxrefMatch) throw new SyntaxError("not a PDF: no startxref at its end");
  const startxref = Number(startxrefMatch[1]);
  const offsets = new Map<number, number>();
  let trailer: Map<string, string> | undefined;
  for (let at: number | undefined = startxref; at !== undefined; ) {
    if (!source.startsWith("xref", at))
      throw new SyntaxError("only a classic cross-reference table is read here");
    const trailerAt = source.indexOf("trailer", at);
    const lines = source
      .slice(at + 4, trailerAt)
      .trim()
      .split(/\r?\n|\r/);
    for (let line = 0; line < lines.length; ) {
      const [first = 0, count = 0] = (lines[line++] ?? "").trim().split(/\s+/).map(Number);
      for (let entry = 0; entry < count; entry++, line++) {
        const [offset, , kind] = (lines[line] ?? "").trim().split(/\s+/);
        if (kind === "n" && !offsets.has(first + entry)) offsets.set(first + entry, Number(offset));
      }
    }
    const entries = dictionaryEntries(source.slice(trailerAt + "trailer".length));
    trailer ??= entries;
    const prev = entries.get("Prev");
    at = prev === undefined ? undefined : Number(prev);
  }
  if (!trailer) throw new SyntaxError("not a PDF: no trailer");
  return { bytes, source, trailer, startxref, offsets };
}

/** An object's value as written (a dictionary's source for a stream), without `stream…`. */
export function objectValue(file: PdfFile, number: number): string {
  const offset = file.offsets.get(number);
  if (offset === undefined) throw new SyntaxError(`object ${number} is not in the file`);
  const header = /^\s*\d+\s+\d+\s+obj\s*/.exec(file.source.slice(offset, offset + 32));
  if (!header) throw new SyntaxError(`object ${number} is not at its offset`);
  const start = offset + header[0].length;
  return file.source.slice(start, valueEnd(file.source, start)).trim();
}

/** A value, or the value its reference points to ("12 0 R" → object 12's value). */
export function resolve(file: PdfFile, value: string | undefined): string | undefined {
  const number = referenceNumber(value);
  return number === undefined ? value : objectValue(file, number);
}

/** Every object number with its value, in file order (to look for fonts and the like). */
export function* objectValues(file: PdfFile): Generator<[number, string]> {
  for (const number of file.offsets.keys()) yield [number, objectValue(file, number)];
}

// The same stream bytes (a font program, a colour profile) are compressed once per process.
const compressed = new WeakMap<Uint8Array, Buffer>();
function deflated(bytes: Uint8Array): Buffer {
  let result = compressed.get(bytes);
  if (!result) {
    result = deflateSync(bytes);
    compressed.set(bytes, result);
  }
  return result;
}

/** An object of an update: its value, and the bytes of its stream when it is one (compressed here). */
export type UpdateObject = {
  number: number;
  value: Map<string, string> | string;
  stream?: { bytes: Uint8Array; compress: boolean };
};

/**
 * The file with `objects` appended as an incremental update, and its trailer: the same /Root,
 * /Info and first /ID (the second changes, as for any update), /Prev the old table.
 */
export function appendUpdate(
  file: PdfFile,
  objects: UpdateObject[],
  trailerChanges: Record<string, string> = {},
): Buffer {
  const parts: Buffer[] = [Buffer.from(file.bytes)];
  let offset = file.bytes.byteLength;
  const write = (part: Buffer | string) => {
    const buffer = typeof part === "string" ? Buffer.from(part, "latin1") : part;
    parts.push(buffer);
    offset += buffer.byteLength;
  };
  if (!file.source.endsWith("\n")) write("\n");
  const written = new Map<number, number>();
  for (const object of objects) {
    written.set(object.number, offset);
    const value = typeof object.value === "string" ? object.value : new Map(object.value);
    if (!object.stream) {
      write(
        `${object.number} 0 obj\n${typeof value === "string" ? value : dictionary(value)}\nendobj\n`,
      );
      continue;
    }
    if (typeof value === "string") throw new TypeError("a stream's value is a dictionary");
    const bytes = object.stream.compress
      ? deflated(object.stream.bytes)
      : Buffer.from(object.stream.bytes);
    if (object.stream.compress) value.set("Filter", "/FlateDecode");
    value.set("Length", String(bytes.byteLength));
    write(`${object.number} 0 obj\n${dictionary(value)}\nstream\n`);
    write(bytes);
    write("\nendstream\nendobj\n");
  }
  const xrefAt = offset;
  const numbers = [...written.keys()].sort((a, b) => a - b);
  let table = "xref\n";
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === (numbers[j] as number) + 1) j++;
    table += `${numbers[i]} ${j - i + 1}\n`;
    for (const number of numbers.slice(i, j + 1))
      table += `${String(written.get(number)).padStart(10, "0")} 00000 n \n`;
    i = j + 1;
  }
  const size = Math.max(Number(file.trailer.get("Size") ?? 0), (numbers.at(-1) ?? 0) + 1);
  const firstId = /<([0-9a-fA-F]*)>/.exec(file.trailer.get("ID") ?? "")?.[1];
  const secondId = createHash("md5")
    .update(Buffer.concat(parts.slice(1)))
    .digest("hex");
  const trailer = new Map(file.trailer);
  trailer.set("Size", String(size));
  trailer.set("Prev", String(file.startxref));
  trailer.set("ID", `[<${firstId ?? secondId}> <${secondId}>]`);
  for (const [key, value] of Object.entries(trailerChanges)) trailer.set(key, value);
  write(`${table}trailer\n${dictionary(trailer)}\nstartxref\n${xrefAt}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** The lowest object number an update may give a new object. */
export const nextObjectNumber = (file: PdfFile): number =>
  Math.max(Number(file.trailer.get("Size") ?? 0), ...[...file.offsets.keys()].map((n) => n + 1));
