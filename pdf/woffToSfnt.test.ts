import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as fontkit from "fontkit";
import { describe, expect, test } from "vitest";
import { woffToSfnt } from "./woffToSfnt.ts";

const require = createRequire(import.meta.url);
const files = path.join(
  path.dirname(require.resolve("@fontsource/noto-sans-sc/package.json")),
  "files",
);
const woff = (subset: number) =>
  readFileSync(path.join(files, `noto-sans-sc-${subset}-400-normal.woff`));
const open = (bytes: Buffer) => fontkit.create(bytes) as fontkit.Font;

describe("woffToSfnt", () => {
  test("reads the subset whose cmap fontkit's own WOFF inflater rejects (the one with ＞)", () => {
    expect(() => open(woff(101)).glyphForCodePoint(0xff1e)).toThrow();
    const font = open(woffToSfnt(woff(101)));
    expect(font.type).toBe("TTF");
    expect(font.glyphForCodePoint(0xff1e).id).toBeGreaterThan(0);
  });

  test("keeps every glyph of a subset fontkit reads either way", () => {
    const fromWoff = open(woff(100));
    const fromSfnt = open(woffToSfnt(woff(100)));
    expect(fromSfnt.numGlyphs).toBe(fromWoff.numGlyphs);
    expect(fromSfnt.characterSet).toEqual(fromWoff.characterSet);
    for (const codePoint of fromWoff.characterSet) {
      const [a, b] = [fromWoff, fromSfnt].map((font) => font.glyphForCodePoint(codePoint));
      expect(b?.id).toBe(a?.id);
      expect(b?.path.toSVG()).toBe(a?.path.toSVG());
    }
  });

  test("refuses what is not WOFF 1.0", () => {
    expect(() => woffToSfnt(woffToSfnt(woff(100)))).toThrow("not a WOFF 1.0 font");
    expect(() => woffToSfnt(new Uint8Array(4))).toThrow("not a WOFF 1.0 font");
  });
});
