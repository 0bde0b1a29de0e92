import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as fontkit from "fontkit";
import { objectValues, type PdfFile, type UpdateObject } from "./pdfFile.ts";
import { dictionaryEntries, encodeName } from "./pdfSyntax.ts";
import { woffToSfnt } from "./woffToSfnt.ts";

/**
 * Invoices draw addresses in Courier, a PDF standard font that a reader supplies: the font is
 * named, not embedded. PDF/A requires every font embedded (ISO 19005-3 §6.2.11.4), so a PDF/A
 * version of a stored invoice replaces each Courier font object by Courier Prime, embedded: a
 * Courier drawn anew with Courier's metrics (every glyph 600/1000 em wide), so every line keeps
 * the position the stored PDF gave it. Same encoding (WinAnsi), same character codes: the page
 * content is not touched.
 */
const COURIER_PRIME: Record<string, { file: string; flags: number; stemV: number }> = {
  // Flags (ISO 32000-1 Table 123): FixedPitch 1, Nonsymbolic 32, Italic 64.
  Courier: { file: "courier-prime-latin-400-normal.woff", flags: 33, stemV: 80 },
  "Courier-Bold": { file: "courier-prime-latin-700-normal.woff", flags: 33, stemV: 140 },
  "Courier-Oblique": { file: "courier-prime-latin-400-italic.woff", flags: 97, stemV: 80 },
  "Courier-BoldOblique": { file: "courier-prime-latin-700-italic.woff", flags: 97, stemV: 140 },
};

const filesDir = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@fontsource/courier-prime/package.json")),
  "files",
);

/** WinAnsiEncoding's codes 0x80–0x9F (ISO 32000-1 Annex D); the rest are Latin-1's. */
const WIN_ANSI_80_9F = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152,
  0, 0x017d, 0, 0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161,
  0x203a, 0x0153, 0, 0x017e, 0x0178,
];
const winAnsi = (code: number) =>
  code >= 0x80 && code <= 0x9f ? WIN_ANSI_80_9F[code - 0x80] : code;

type FaceProgram = {
  program: Buffer;
  parsed: fontkit.Font;
  /** Codes 32–255, in thousandths of an em. */
  widths: number[];
  scale: (units: number) => number;
};
const programs = new Map<string, FaceProgram>();

/** A face's font program and metrics, read once per process (the bytes are compressed once too). */
function faceProgram(file: string): FaceProgram {
  const known = programs.get(file);
  if (known) return known;
  const program = woffToSfnt(readFileSync(path.join(filesDir, file)));
  const parsed = fontkit.create(program) as fontkit.Font;
  const scale = (units: number) => Math.round((units * 1000) / parsed.unitsPerEm);
  const widths: number[] = [];
  for (let code = 32; code <= 255; code++)
    widths.push(scale(parsed.glyphForCodePoint(winAnsi(code) || 0).advanceWidth));
  const face = { program, parsed, widths, scale };
  programs.set(file, face);
  return face;
}

/**
 * The new versions of the file's Courier font objects (a TrueType font each, with its
 * descriptor and font program numbered from `first`), and the next free object number. Throws
 * on any other font that is not embedded: no PDF/A could be made of that file.
 */
export function embeddedCourier(
  file: PdfFile,
  first: number,
): { objects: UpdateObject[]; next: number } {
  const objects: UpdateObject[] = [];
  let next = first;
  for (const [number, value] of objectValues(file)) {
    if (!value.startsWith("<<")) continue;
    const font = dictionaryEntries(value);
    if (font.get("Type") !== "/Font" || font.get("Subtype") !== "/Type1") continue;
    const baseFont = font.get("BaseFont")?.slice(1) ?? "";
    const face = COURIER_PRIME[baseFont];
    if (!face) {
      if (font.has("FontDescriptor")) continue;
      throw new Error(`the font ${baseFont} is not embedded, and no replacement is known`);
    }
    const { program, parsed, widths, scale } = faceProgram(face.file);
    const name = encodeName(parsed.postscriptName);
    const [descriptor, fontFile] = [next, next + 1];
    next += 2;
    objects.push(
      {
        number,
        value: new Map([
          ["Type", "/Font"],
          ["Subtype", "/TrueType"],
          ["BaseFont", name],
          ["FirstChar", "32"],
          ["LastChar", "255"],
          ["Widths", `[${widths.join(" ")}]`],
          ["Encoding", "/WinAnsiEncoding"],
          ["FontDescriptor", `${descriptor} 0 R`],
        ]),
      },
      {
        number: descriptor,
        value: new Map([
          ["Type", "/FontDescriptor"],
          ["FontName", name],
          ["Flags", String(face.flags)],
          [
            "FontBBox",
            `[${[parsed.bbox.minX, parsed.bbox.minY, parsed.bbox.maxX, parsed.bbox.maxY].map(scale).join(" ")}]`,
          ],
          ["ItalicAngle", String(parsed.italicAngle)],
          ["Ascent", String(scale(parsed.ascent))],
          ["Descent", String(scale(parsed.descent))],
          ["CapHeight", String(scale(parsed.capHeight))],
          ["StemV", String(face.stemV)],
          ["FontFile2", `${fontFile} 0 R`],
        ]),
      },
      {
        number: fontFile,
        value: new Map([["Length1", String(program.byteLength)]]),
        stream: { bytes: program, compress: true },
      },
    );
  }
  return { objects, next };
}
