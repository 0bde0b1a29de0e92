import { inflateSync } from "node:zlib";

const WOFF_SIGNATURE = 0x774f4646; // "wOFF"
const WOFF_HEADER = 44;
const WOFF_ENTRY = 20;
const SFNT_HEADER = 12;
const SFNT_ENTRY = 16;

const padded = (length: number) => (length + 3) & ~3;

/**
 * The TrueType/OpenType font inside a WOFF 1.0 file, its tables inflated with Node's zlib.
 *
 * fontkit reads WOFF tables with tiny-inflate, which rejects some valid deflate streams
 * ("Data error", foliojs/tiny-inflate#4): Noto Sans SC's subset 101, the only one with U+FF1E,
 * has such a `cmap`. Handing pdfkit the sfnt instead sidesteps that inflater altogether, and
 * spares it inflating the tables again on every render.
 *
 * @example woffToSfnt(readFileSync("noto-sans-sc-101-400-normal.woff")) // bytes fontkit reads as TTF
 */
export function woffToSfnt(woff: Uint8Array): Buffer {
  const input = Buffer.from(woff.buffer, woff.byteOffset, woff.byteLength);
  if (input.length < WOFF_HEADER || input.readUInt32BE(0) !== WOFF_SIGNATURE) {
    throw new Error("not a WOFF 1.0 font");
  }
  const flavor = input.readUInt32BE(4);
  const numTables = input.readUInt16BE(12);

  const tables = Array.from({ length: numTables }, (_, i) => {
    const entry = WOFF_HEADER + i * WOFF_ENTRY;
    const offset = input.readUInt32BE(entry + 4);
    const compLength = input.readUInt32BE(entry + 8);
    const origLength = input.readUInt32BE(entry + 12);
    const stored = input.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(stored) : stored;
    if (data.length !== origLength) throw new Error("WOFF table length mismatch");
    return {
      tag: input.readUInt32BE(entry),
      checksum: input.readUInt32BE(entry + 16),
      data,
    };
  });

  // The sfnt header's binary-search hints (OpenType spec, "Table Directory").
  const entrySelector = Math.floor(Math.log2(Math.max(numTables, 1)));
  const searchRange = 2 ** entrySelector * 16;
  const directoryEnd = SFNT_HEADER + numTables * SFNT_ENTRY;
  const size = tables.reduce((total, table) => total + padded(table.data.length), directoryEnd);

  const sfnt = Buffer.alloc(size);
  sfnt.writeUInt32BE(flavor, 0);
  sfnt.writeUInt16BE(numTables, 4);
  sfnt.writeUInt16BE(searchRange, 6);
  sfnt.writeUInt16BE(entrySelector, 8);
  sfnt.writeUInt16BE(numTables * 16 - searchRange, 10);
  let offset = directoryEnd;
  tables.forEach((table, i) => {
    const entry = SFNT_HEADER + i * SFNT_ENTRY;
    sfnt.writeUInt32BE(table.tag, entry);
    sfnt.writeUInt32BE(table.checksum, entry + 4);
    sfnt.writeUInt32BE(offset, entry + 8);
    sfnt.writeUInt32BE(table.data.length, entry + 12);
    table.data.copy(sfnt, offset);
    offset += padded(table.data.length);
  });
  return sfnt;
}
