import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as fontkit from "fontkit";
import type { TFontDictionary } from "pdfmake/interfaces";
import { woffToSfnt } from "./woffToSfnt.ts";

const require = createRequire(import.meta.url);
const pdfmakeDir = path.dirname(require.resolve("pdfmake/package.json"));

const ROBOTO = {
  normal: path.join(pdfmakeDir, "fonts/Roboto/Roboto-Regular.ttf"),
  bold: path.join(pdfmakeDir, "fonts/Roboto/Roboto-Medium.ttf"),
  italics: path.join(pdfmakeDir, "fonts/Roboto/Roboto-Italic.ttf"),
  bolditalics: path.join(pdfmakeDir, "fonts/Roboto/Roboto-MediumItalic.ttf"),
};

/**
 * Fonts for the characters Roboto lacks, tried in this order, except that a font is tried
 * first for the script it is made for (`prefer`). SC, JP and KR share one design (Source Han
 * Sans): SC draws Han ideographs, as it did alone before, KR hangul and JP kana.
 */
const SCRIPT_FONTS: { name: string; prefer?: RegExp }[] = [
  { name: "@fontsource/noto-emoji" },
  { name: "@fontsource/noto-sans-hebrew" },
  { name: "@fontsource/noto-sans-arabic" },
  { name: "@fontsource/noto-sans-devanagari" },
  { name: "@fontsource/noto-sans-thai" },
  { name: "@fontsource/noto-sans-sc" },
  { name: "@fontsource/noto-sans-jp", prefer: /[\p{Script=Hiragana}\p{Script=Katakana}]/u },
  { name: "@fontsource/noto-sans-kr", prefer: /\p{Script=Hangul}/u },
];

/** One @fontsource subset file (regular and bold) and the code points its CSS gives it. */
export type ScriptFace = {
  family: string;
  ranges: [number, number][];
  normal: string;
  bold: string;
};

/**
 * The subsets of a @fontsource package (`noto-sans-hebrew`) that its CSS declares, each a WOFF
 * file and its `unicode-range`: the numbered slices of a large font (CJK, emoji) or the one
 * named after the package's script. The other named subsets (latin, cyrillic-ext, symbols…)
 * repeat Google Fonts' generic ranges, wider than the glyphs their files hold, for alphabets
 * Roboto draws. The family is the file's name less weight and style (`noto-sans-sc-101`).
 *
 * @example fontsourceFaces(css, dir, "noto-sans-hebrew").map((f) => f.family) // ["noto-sans-hebrew-hebrew"]
 */
export function fontsourceFaces(css: string, dir: string, slug: string): ScriptFace[] {
  const faces: ScriptFace[] = [];
  for (const [, name = "", ranges = ""] of css.matchAll(
    /url\(\.\/files\/([\w-]+)-400-normal\.woff\) format\('woff'\);\s*unicode-range: ([^;]+);/g,
  )) {
    const subset = name.slice(slug.length + 1);
    if (!/^\d+$/.test(subset) && !slug.endsWith(`-${subset}`)) continue;
    faces.push({
      family: name,
      ranges: ranges.split(",").map((range) => {
        const [lo = "", hi] = range.trim().replace(/^U\+/i, "").split("-");
        return [Number.parseInt(lo, 16), Number.parseInt(hi ?? lo, 16)];
      }),
      normal: path.join(dir, "files", `${name}-400-normal.woff`),
      bold: path.join(dir, "files", `${name}-700-normal.woff`),
    });
  }
  return faces;
}

const scriptFaces: ScriptFace[][] = SCRIPT_FONTS.map(({ name }) => {
  const dir = path.dirname(require.resolve(`${name}/package.json`));
  const css = readFileSync(path.join(dir, "400.css"), "utf8");
  return fontsourceFaces(css, dir, name.replace("@fontsource/", ""));
});

let familyByCodePoint: Map<number, string> | undefined;

/**
 * Which subset draws each code point, built the first time a character Roboto lacks is met
 * (~20 ms, ~100k code points: a process that only ever sees Latin never pays it).
 */
function scriptFamilies(): Map<number, string> {
  if (familyByCodePoint) return familyByCodePoint;
  const families = new Map<number, string>();
  const claim = (face: ScriptFace, wanted: (char: string) => boolean) => {
    for (const [lo, hi] of face.ranges) {
      for (let c = lo; c <= hi; c++) {
        if (!families.has(c) && wanted(String.fromCodePoint(c))) families.set(c, face.family);
      }
    }
  };
  SCRIPT_FONTS.forEach(({ prefer }, i) => {
    if (prefer) for (const face of scriptFaces[i] ?? []) claim(face, (char) => prefer.test(char));
  });
  for (const face of scriptFaces.flat()) claim(face, () => true);
  familyByCodePoint = families;
  return families;
}

let robotoCodePoints: ReadonlySet<number> | undefined;

/**
 * The font family that draws a character: Roboto when it has the glyph, else the first script
 * subset whose unicode-range covers it, else Roboto (a missing-glyph box).
 */
export function familyOf(codePoint: number): string {
  robotoCodePoints ??= new Set(
    (fontkit.create(readFileSync(ROBOTO.normal)) as fontkit.Font).characterSet,
  );
  if (robotoCodePoints.has(codePoint)) return "Roboto";
  return scriptFamilies().get(codePoint) ?? "Roboto";
}

const COURIER = {
  normal: "Courier",
  bold: "Courier-Bold",
  italics: "Courier-Oblique",
  bolditalics: "Courier-BoldOblique",
};

/**
 * Fonts embedded in invoices (pdfkit subsets them: a PDF carries only the glyphs it uses):
 * Roboto for Latin, Greek, Cyrillic and common symbols; the script subsets for what Roboto
 * lacks; Courier (a PDF standard font) for addresses.
 */
export const pdfFonts: TFontDictionary = {
  Roboto: ROBOTO,
  Courier: COURIER,
  ...Object.fromEntries(
    scriptFaces
      .flat()
      .map((face) => [
        face.family,
        { normal: face.normal, bold: face.bold, italics: face.normal, bolditalics: face.bold },
      ]),
  ),
};

/** What pdfmake may open from disk: Roboto's files and Courier's standard-font names. */
export const fontFiles: ReadonlySet<string> = new Set([
  ...Object.values(ROBOTO),
  ...Object.values(COURIER),
]);

/** The script subsets' WOFF files, which pdfmake gets from its virtual file system. */
export const scriptFontFiles: ReadonlySet<string> = new Set(
  scriptFaces.flat().flatMap((face) => [face.normal, face.bold]),
);

/**
 * A script subset as pdfkit should read it: the WOFF file converted to sfnt (~0.5 ms), each time
 * a document uses it, so memory stays flat whatever scripts a long-lived process meets.
 */
export function readScriptFont(file: string): Buffer {
  return woffToSfnt(readFileSync(file));
}

const ascents = new Map<string, number>();

/**
 * A family's ascent in ems (hhea, as pdfkit places a line's baseline): Roboto's is 0.928, Noto
 * Sans JP's 1.160. A line mixing them sits lower than a Roboto-only line beside it by the
 * difference, which invoiceDocument.ts gives the cells beside it as a top margin.
 */
export function ascentOf(family: string): number {
  const known = ascents.get(family);
  if (known !== undefined) return known;
  const face = scriptFaces.flat().find((f) => f.family === family);
  const file = face
    ? readScriptFont(face.normal)
    : family === "Roboto"
      ? readFileSync(ROBOTO.normal)
      : undefined;
  const font = file ? (fontkit.create(file) as fontkit.Font) : undefined;
  const ascent = font ? font.ascent / font.unitsPerEm : 0;
  ascents.set(family, ascent);
  return ascent;
}

/**
 * The subset of `family`'s own font (another slice of Noto Sans JP, say) that draws
 * `codePoint`, if that font has it: a dash next to Japanese in the Japanese font's own width.
 */
export function siblingFamilyOf(family: string, codePoint: number): string | undefined {
  const pkg = scriptFaces.find((faces) => faces.some((face) => face.family === family));
  return pkg?.find((face) => face.ranges.some(([lo, hi]) => codePoint >= lo && codePoint <= hi))
    ?.family;
}
