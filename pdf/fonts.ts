import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as fontkit from "fontkit";

const require = createRequire(import.meta.url);
const pdfmakeDir = path.dirname(require.resolve("pdfmake/package.json"));
const notoDir = path.dirname(require.resolve("@fontsource/noto-sans-sc/package.json"));

type FontVariants = { normal: string; bold: string; italics: string; bolditalics: string };

/** Whether fontkit (pdfkit's font engine) can map characters with this font file. */
function usable(file: string): boolean {
  try {
    const font = fontkit.create(readFileSync(file)) as unknown as {
      glyphForCodePoint: (c: number) => unknown;
    };
    font.glyphForCodePoint(0x4e00);
    return true;
  } catch {
    return false;
  }
}

/**
 * Noto Sans SC, as @fontsource ships it: ~100 small files, each covering a unicode range
 * (listed in its CSS). Loading the one big file costs ~4 s per PDF; loading only the subsets a
 * text needs costs ~15 ms each.
 */
const cjkSubsets: { lo: number; hi: number; family: string }[] = [];
const cjkFamilies: Record<string, FontVariants> = {};
for (const face of readFileSync(path.join(notoDir, "400.css"), "utf8").matchAll(
  /noto-sans-sc-(\d+)-400-normal\.woff\)[^;]*;\s*unicode-range: ([^;]+);/g,
)) {
  const [, subset = "", ranges = ""] = face;
  const family = `NotoSansSC${subset}`;
  const file = (weight: number) =>
    path.join(notoDir, `files/noto-sans-sc-${subset}-${weight}-normal.woff`);
  // A few subset files lack a usable cmap and make fontkit throw mid-render; their
  // characters fall back to Roboto (a missing-glyph box) rather than failing the PDF.
  if (!usable(file(400)) || !usable(file(700))) continue;
  cjkFamilies[family] = {
    normal: file(400),
    bold: file(700),
    italics: file(400),
    bolditalics: file(700),
  };
  for (const range of ranges.split(",")) {
    const [lo = "", hi] = range.trim().replace(/^U\+/i, "").split("-");
    cjkSubsets.push({ lo: Number.parseInt(lo, 16), hi: Number.parseInt(hi ?? lo, 16), family });
  }
}

/**
 * Fonts embedded in invoices (pdfkit subsets them: a PDF carries only the glyphs it uses):
 * Roboto for Latin, Greek and Cyrillic; Noto Sans SC subsets for CJK characters, which Roboto
 * lacks; Courier (a PDF standard font) for addresses.
 */
export const pdfFonts: Record<string, FontVariants> = {
  Roboto: {
    normal: path.join(pdfmakeDir, "fonts/Roboto/Roboto-Regular.ttf"),
    bold: path.join(pdfmakeDir, "fonts/Roboto/Roboto-Medium.ttf"),
    italics: path.join(pdfmakeDir, "fonts/Roboto/Roboto-Italic.ttf"),
    bolditalics: path.join(pdfmakeDir, "fonts/Roboto/Roboto-MediumItalic.ttf"),
  },
  Courier: {
    normal: "Courier",
    bold: "Courier-Bold",
    italics: "Courier-Oblique",
    bolditalics: "Courier-BoldOblique",
  },
  ...cjkFamilies,
};

/** The files pdfmake may read: the fonts above, nothing else. */
export const fontFiles: ReadonlySet<string> = new Set(
  Object.values(pdfFonts).flatMap((variants) => Object.values(variants)),
);

// CJK ideographs and symbols, kana, bopomofo, hangul, full-width forms.
const CJK =
  /[\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

function familyOf(char: string): string {
  if (!CJK.test(char)) return "Roboto";
  const codePoint = char.codePointAt(0) ?? 0;
  return cjkSubsets.find((s) => codePoint >= s.lo && codePoint <= s.hi)?.family ?? "Roboto";
}

/**
 * Splits user text into runs, each in a font that has its glyphs: one pdfmake inline per run.
 *
 * @example fontRuns("王 GmbH") // [{ text: "王", font: "NotoSansSC116" }, { text: " GmbH", font: "Roboto" }]
 */
export function fontRuns(text: string): { text: string; font: string }[] {
  if (!CJK.test(text)) return [{ text, font: "Roboto" }];
  const runs: { text: string; font: string }[] = [];
  for (const char of text) {
    const font = familyOf(char);
    const last = runs.at(-1);
    if (last && last.font === font) last.text += char;
    else runs.push({ text: char, font });
  }
  return runs;
}
