import { existsSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { familyOf, fontsourceFaces, pdfFonts, scriptFontFiles } from "./fontFaces.ts";
import { fontRuns } from "./fonts.ts";

const HEBREW = "noto-sans-hebrew-hebrew";
const ARABIC = "noto-sans-arabic-arabic";

describe("familyOf", () => {
  test.each([
    ["A", "Roboto"],
    ["ß", "Roboto"],
    ["λ", "Roboto"],
    ["ж", "Roboto"],
    ["₹", "Roboto"],
    ["…", "Roboto"],
    ["א", HEBREW],
    ["ب", ARABIC],
    ["ก", "noto-sans-thai-thai"],
    ["क", "noto-sans-devanagari-devanagari"],
    // The subset fontkit could not read until woffToSfnt: before, ＞ was a missing glyph.
    ["＞", "noto-sans-sc-101"],
    ["Ａ", "noto-sans-sc-5"],
  ])("%s is drawn with %s", (char, family) => {
    expect(familyOf(char.codePointAt(0) ?? 0)).toBe(family);
  });

  test.each([
    ["中", "noto-sans-sc-"],
    ["あ", "noto-sans-jp-"],
    ["カ", "noto-sans-jp-"],
    ["한", "noto-sans-kr-"],
    ["🚀", "noto-emoji-"],
  ])("%s is drawn with a %s subset", (char, prefix) => {
    expect(familyOf(char.codePointAt(0) ?? 0)).toMatch(new RegExp(`^${prefix}\\d+$`));
  });

  test("falls back to Roboto (a missing-glyph box) for a script none of the fonts covers", () => {
    expect(familyOf("ཀ".codePointAt(0) ?? 0)).toBe("Roboto");
  });
});

describe("fontRuns", () => {
  test.each([
    "Café, Straße, Ærøskøbing, Łódź",
    "Λογιστικές υπηρεσίες",
    "Бухгалтерские услуги",
    "€ £ ¥ ₹ © ™ — “quoted” …",
  ])("keeps %s in one Roboto run", (text) => {
    expect(fontRuns(text)).toEqual([{ text, font: "Roboto" }]);
  });

  test("splits CJK from Latin", () => {
    expect(fontRuns("王 GmbH")).toEqual([
      { text: "王", font: "noto-sans-sc-116" },
      { text: " GmbH", font: "Roboto" },
    ]);
  });

  test("keeps a grapheme cluster in its base character's font", () => {
    expect(fontRuns("हिन्दी")).toEqual([{ text: "हिन्दी", font: "noto-sans-devanagari-devanagari" }]);
    expect(fontRuns("ไทย")).toEqual([{ text: "ไทย", font: "noto-sans-thai-thai" }]);
    for (const emoji of ["👍🏽", "❤️", "👨‍👩‍👧"]) {
      const runs = fontRuns(emoji);
      expect(runs).toHaveLength(1);
      expect(runs[0]?.text).toBe(emoji);
      expect(runs[0]?.font).toMatch(/^noto-emoji-\d+$/);
    }
  });

  test("lays a right-to-left text out as read: last word leftmost, each word in logical order", () => {
    // fontkit reverses the glyphs of a Hebrew or Arabic run by itself.
    expect(fontRuns("חברת דוגמה")).toEqual([
      { text: "דוגמה", font: HEBREW },
      { text: " ", font: "Roboto" },
      { text: "חברת", font: HEBREW },
    ]);
    expect(fontRuns("خدمات محاسبية")).toEqual([
      { text: "محاسبية", font: ARABIC },
      { text: " ", font: "Roboto" },
      { text: "خدمات", font: ARABIC },
    ]);
  });

  test("orders mixed directions by the Unicode bidi algorithm", () => {
    // Left-to-right line (its first strong letter is Latin); the number belongs to the Hebrew.
    expect(fontRuns("Ref חברת דוגמה 2026")).toEqual([
      { text: "Ref 2026 ", font: "Roboto" },
      { text: "דוגמה", font: HEBREW },
      { text: " ", font: "Roboto" },
      { text: "חברת", font: HEBREW },
    ]);
    // Right-to-left line: brackets mirrored, digits (Western or Arabic-Indic) left to right.
    expect(fontRuns("חברת (ישראל)")).toEqual([
      { text: "(", font: "Roboto" },
      { text: "ישראל", font: HEBREW },
      { text: ") ", font: "Roboto" },
      { text: "חברת", font: HEBREW },
    ]);
    expect(fontRuns("مرحبا 123 ١٢٣")).toEqual([
      { text: "١٢٣", font: ARABIC },
      { text: " 123 ", font: "Roboto" },
      { text: "مرحبا", font: ARABIC },
    ]);
  });

  test("reorders each line on its own", () => {
    expect(fontRuns("שלום עולם\nHello")).toEqual([
      { text: "עולם", font: HEBREW },
      { text: " ", font: "Roboto" },
      { text: "שלום", font: HEBREW },
      { text: "\nHello", font: "Roboto" },
    ]);
  });

  test("is a pure function of the text and the font of each character", () => {
    const fontOf = (codePoint: number) => (codePoint === 0x20 ? "Roboto" : "Hebrew");
    expect(fontRuns("אב גד", fontOf)).toEqual([
      { text: "גד", font: "Hebrew" },
      { text: " ", font: "Roboto" },
      { text: "אב", font: "Hebrew" },
    ]);
    expect(fontRuns("ab", () => "X")).toEqual([{ text: "ab", font: "X" }]);
  });
});

describe("fontsourceFaces", () => {
  const face = (name: string, range: string) =>
    `@font-face {\n  src: url(./files/${name}-400-normal.woff2) format('woff2'), url(./files/${name}-400-normal.woff) format('woff');\n  unicode-range: ${range};\n}\n`;

  test("keeps the package's own script and numbered slices, with their ranges", () => {
    const css =
      face("noto-sans-hebrew-hebrew", "U+0590-05FF,U+20AA") +
      face("noto-sans-hebrew-latin", "U+0000-00FF") +
      face("noto-sans-hebrew-7", "U+fb1d");
    expect(fontsourceFaces(css, "/fonts", "noto-sans-hebrew")).toEqual([
      {
        family: "noto-sans-hebrew-hebrew",
        ranges: [
          [0x590, 0x5ff],
          [0x20aa, 0x20aa],
        ],
        normal: "/fonts/files/noto-sans-hebrew-hebrew-400-normal.woff",
        bold: "/fonts/files/noto-sans-hebrew-hebrew-700-normal.woff",
      },
      {
        family: "noto-sans-hebrew-7",
        ranges: [[0xfb1d, 0xfb1d]],
        normal: "/fonts/files/noto-sans-hebrew-7-400-normal.woff",
        bold: "/fonts/files/noto-sans-hebrew-7-700-normal.woff",
      },
    ]);
  });

  test("every script subset in the font table has its regular and bold files", () => {
    expect(pdfFonts["noto-sans-sc-101"]).toBeDefined();
    expect(scriptFontFiles.size).toBeGreaterThan(700);
    for (const file of scriptFontFiles) expect(existsSync(file), file).toBe(true);
  });
});

describe("dashes beside CJK text", () => {
  const fontOf = (codePoint: number) => (codePoint >= 0x3000 ? "noto-sans-jp-5" : "Roboto");
  const siblingOf = (family: string, codePoint: number) =>
    codePoint === 0x2014 && family.startsWith("noto-sans-jp") ? "noto-sans-jp-119" : undefined;

  test("an em dash on a line with Japanese takes the Japanese font's own dash (Roboto's is half as wide)", () => {
    expect(fontRuns("翻訳 — Translation", fontOf, siblingOf)).toEqual([
      { text: "翻訳", font: "noto-sans-jp-5" },
      { text: " ", font: "Roboto" },
      { text: "—", font: "noto-sans-jp-119" },
      { text: " Translation", font: "Roboto" },
    ]);
  });

  test("a Latin-only line keeps Roboto's dash", () => {
    expect(fontRuns("Hosting — monthly", fontOf, siblingOf)).toEqual([
      { text: "Hosting — monthly", font: "Roboto" },
    ]);
  });

  test("the real fonts: the CJK font drawing the line has its own em dash", () => {
    const runs = fontRuns("翻訳 — Translation");
    const han = runs.find((run) => run.text === "翻")?.font ?? "";
    expect(han).toMatch(/^noto-sans-(jp|sc|tc|kr)-/);
    const dash = runs.find((run) => run.text === "—")?.font ?? "";
    expect(dash.split("-").slice(0, 3)).toEqual(han.split("-").slice(0, 3));
  });
});
