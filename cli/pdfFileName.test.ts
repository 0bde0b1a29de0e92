import { describe, expect, test } from "vitest";
import { pdfFileName, slugify } from "./pdfFileName.ts";

describe("the default file name of remit invoices pdf", () => {
  test.each([
    ["Acme Ltd", "INV-0001", "acme-ltd-INV-0001.pdf"],
    ["Acme Ltd.", "INV-0001", "acme-ltd-INV-0001.pdf"],
    ["  Café Ünïcode & Co ", "INV-0042", "cafe-unicode-co-INV-0042.pdf"],
    ["../../etc/passwd", "INV-0001", "etc-passwd-INV-0001.pdf"],
    ["株式会社サンプル", "INV-0002", "INV-0002.pdf"],
    ["Acme", "../x", "acme-x.pdf"],
  ])("%j + %j → %j", (merchant, number, expected) => {
    expect(pdfFileName(merchant, number)).toBe(expected);
  });

  test("a long name is cut, never ending on a hyphen", () => {
    const slug = slugify(`${"a".repeat(59)} b`);
    expect(slug.length).toBeLessThanOrEqual(60);
    expect(slug).not.toMatch(/-$/);
  });
});
