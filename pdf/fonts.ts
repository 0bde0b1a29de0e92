import bidiFactory from "bidi-js";
import { familyOf, siblingFamilyOf } from "./fontFaces.ts";

/** A stretch of text in one font, one pdfmake inline. */
export type FontRun = { text: string; font: string };

const bidi = bidiFactory();
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

// Scripts whose runs fontkit (pdfkit's shaper) lays out right to left by itself.
const RTL_SCRIPT =
  /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}]/u;
// Right-to-left marks, embeddings, overrides and isolates.
const RTL_CONTROL = /[\u061c\u200f\u202b\u202e\u2067]/u;

type Piece = FontRun & { level: number };

/** Dashes drawn in a CJK font when their line has CJK text: Roboto's are half as wide. */
const CJK_DASH = /^[\u2014\u2015]$/u;
/** The CJK subsets' families (`noto-sans-jp-…`, `noto-sans-sc-…`, `noto-sans-kr-…`). */
const CJK_FAMILY = /^noto-sans-(jp|sc|tc|kr)-/;

/**
 * One line in the order a reader sees it, left to right. pdfkit draws inlines left to right and
 * pdfmake breaks lines between words, so the Unicode bidi algorithm's reordering (rule L2) is
 * done here, between runs: a run in an RTL script stays in logical order (fontkit reverses its
 * glyphs), any other run at an RTL level is reversed here, its brackets mirrored. A line that
 * wraps is reordered as a whole, before pdfmake breaks it.
 */
function lineRuns(
  line: string,
  fontOf: (codePoint: number) => string,
  siblingOf: (family: string, codePoint: number) => string | undefined,
): Piece[] {
  const { levels } = bidi.getEmbeddingLevels(line);
  const pieces: Piece[] = [];
  let cjkFont: string | undefined;
  for (const char of line) {
    const family = fontOf(char.codePointAt(0) ?? 0);
    if (CJK_FAMILY.test(family)) {
      cjkFont = family;
      break;
    }
  }
  for (const { segment, index } of graphemes.segment(line)) {
    const codePoint = segment.codePointAt(0) ?? 0;
    const font =
      (cjkFont && CJK_DASH.test(segment) && siblingOf(cjkFont, codePoint)) || fontOf(codePoint);
    const level = levels[index] ?? 0;
    const last = pieces.at(-1);
    if (last && last.font === font && last.level === level) last.text += segment;
    else pieces.push({ text: segment, font, level });
  }
  for (const piece of pieces) {
    if (piece.level % 2 === 1 && !RTL_SCRIPT.test(piece.text)) {
      piece.text = [...graphemes.segment(piece.text)]
        .reverse()
        .map(({ segment }) => bidi.getMirroredCharacter(segment) ?? segment)
        .join("");
    }
  }
  const levelsUsed = pieces.map((piece) => piece.level);
  const lowestOdd = Math.min(...levelsUsed.filter((level) => level % 2 === 1));
  for (let level = Math.max(...levelsUsed); level >= lowestOdd; level--) {
    for (let start = 0; start < pieces.length; start++) {
      if ((pieces[start]?.level ?? 0) < level) continue;
      let end = start;
      while (end + 1 < pieces.length && (pieces[end + 1]?.level ?? 0) >= level) end++;
      pieces.splice(start, end - start + 1, ...pieces.slice(start, end + 1).reverse());
      start = end;
    }
  }
  return pieces;
}

/**
 * Splits user text into runs, each in a font that has its glyphs (one pdfmake inline per run),
 * in the order a reader sees them. Characters are taken by grapheme cluster, so a combining
 * mark, a vowel sign or an emoji modifier stays in its base character's font.
 *
 * @example fontRuns("王 GmbH") // [{ text: "王", font: "noto-sans-sc-116" }, { text: " GmbH", font: "Roboto" }]
 */
export function fontRuns(
  text: string,
  fontOf = familyOf,
  siblingOf: (family: string, codePoint: number) => string | undefined = siblingFamilyOf,
): FontRun[] {
  let plain = !RTL_CONTROL.test(text);
  for (const char of text) {
    if (!plain) break;
    plain = fontOf(char.codePointAt(0) ?? 0) === "Roboto";
  }
  if (plain) return [{ text, font: "Roboto" }];

  const runs: FontRun[] = [];
  for (const line of text.split(/(\r\n|\n|\r)/)) {
    if (line === "") continue;
    const pieces = /^[\r\n]+$/.test(line)
      ? [{ text: line, font: "Roboto" }]
      : lineRuns(line, fontOf, siblingOf);
    for (const { text, font } of pieces) {
      const last = runs.at(-1);
      // Neighbours in one font merge, unless fontkit would reverse the merged text as one.
      if (last && last.font === font && !RTL_SCRIPT.test(last.text + text)) last.text += text;
      else runs.push({ text, font });
    }
  }
  return runs;
}
