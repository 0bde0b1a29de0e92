import { extractText, getDocumentProxy, getMeta } from "unpdf";
import { describe, expect, test } from "vitest";
import { usdcPaymentUri } from "../domain/paymentUri.ts";
import { fontRuns } from "./fonts.ts";
import {
  baselineDrop,
  type InvoicePdfData,
  invoiceDocument,
  renderInvoicePdf,
} from "./invoiceDocument.ts";
import { renderPdf } from "./renderPdf.ts";

const data: InvoicePdfData = {
  invoiceNumber: "INV-0007",
  issueDate: "2026-11-01",
  dueDate: "2026-12-01",
  createdAt: new Date("2026-11-01T09:30:00.123Z"),
  merchant: { name: "Acme", address: "1 Road", email: "a@acme.example" },
  vendor: { name: "Globex", email: "ap@globex.example", address: null },
  lineItems: [
    { description: "Work", quantity: "2", unitPrice: 75_000_000n, lineTotal: 150_000_000n },
  ],
  totalAmount: 150_000_000n,
  notes: null,
  depositAddress: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
  paymentUri: usdcPaymentUri("0x8ba1f109551bD432803012645Ac136ddd64DBA72", 150_000_000n),
  invoiceUrl: "http://localhost:3000/i/abc",
};

const descriptions = {
  latin: "Café, Straße, Ærøskøbing, Łódź",
  greek: "Λογιστικές υπηρεσίες",
  cyrillic: "Бухгалтерские услуги",
  hebrew: "שירותי הנהלת חשבונות",
  arabic: "خدمات محاسبية",
  thai: "บริการบัญชี",
  devanagari: "हिन्दी लेखा सेवाएँ",
  chinese: "会计服务 (test)",
  japanese: "カタカナ ひらがな 東京",
  korean: "회계 서비스",
  fullWidth: "＞ Ａ １",
  symbols: "€ £ ¥ ₹ © ™ — “quoted” …",
  emoji: "Launch 🚀 party 🎉",
};

/** A vendor named in Hebrew, billed for lines in every script users type. */
const multiScript: InvoicePdfData = {
  ...data,
  vendor: { ...data.vendor, name: "חברת דוגמה בע״מ" },
  lineItems: Object.values(descriptions).map((description) => ({
    description,
    quantity: "1",
    unitPrice: 1_000_000n,
    lineTotal: 1_000_000n,
  })),
  totalAmount: BigInt(Object.keys(descriptions).length) * 1_000_000n,
};

describe("invoiceDocument", () => {
  test.each([
    ["Latin", data],
    ["multi-script", multiScript],
  ])("the same record renders to the same bytes (%s)", async (_, record) => {
    const [a, b] = await Promise.all([
      renderPdf(invoiceDocument(record)),
      renderPdf(invoiceDocument(record)),
    ]);
    expect(a.equals(b)).toBe(true);
  });

  test("carries a QR code with the EIP-681 URI for the exact amount", () => {
    const json = JSON.stringify(invoiceDocument(data).content);
    expect(json).toContain(
      '"qr":"ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x8ba1f109551bD432803012645Ac136ddd64DBA72&uint256=150000000"',
    );
  });

  test("dates the PDF from the record, not the clock", async () => {
    const { info } = await getMeta(new Uint8Array(await renderPdf(invoiceDocument(data))));
    expect(info.CreationDate).toBe("D:20261101093000Z");
    expect(info.ModDate).toBe("D:20261101093000Z");
    expect(info.Title).toBe("Invoice INV-0007");
  });
});

describe("renderInvoicePdf", () => {
  const words = (text: string) => text.split(" ");

  test("every script users type comes out as text, not missing glyphs; right-to-left words in the order drawn", async () => {
    const pdf = await renderInvoicePdf(multiScript);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), {
      mergePages: true,
    });
    // A glyph the font lacks extracts as U+0000. Noto Sans Arabic draws a letter's dots as
    // mark glyphs of their own, which stand for no character: pdf.js extracts each as a control
    // character (U+0001…), dropped here, as are the extra spaces it puts between some runs.
    expect(text).not.toContain("\u0000");
    const lines = text
      .replace(/(?!\n)\p{Cc}/gu, "")
      .replace(/[^\S\n]+/g, " ")
      .split("\n");
    const cell = (row: number) =>
      lines
        .find((line) => line.startsWith(`${row} `) && line.endsWith(" 1 1.00 1.00"))
        ?.slice(`${row} `.length, -" 1 1.00 1.00".length);

    Object.values(descriptions).forEach((description, i) => {
      const drawn = cell(i + 1);
      if (description === descriptions.hebrew || description === descriptions.arabic) {
        // Drawn right to left, a word at a time: pdf.js gives each word in reading order, and
        // the words as they stand on the page, left to right, which is reading order reversed.
        expect(drawn).toBe(words(description).reverse().join(" "));
      } else if (description === descriptions.devanagari) {
        // The vowel sign ि is drawn before the consonant it follows in the text (हि), and
        // pdf.js returns glyphs as drawn: the same characters, that one sign moved.
        expect([...(drawn ?? "")].sort()).toEqual([...description].sort());
      } else {
        expect(drawn).toBe(description);
      }
    });
    expect(lines).toContain(words("חברת דוגמה בע״מ").reverse().join(" "));
  });
});

describe("baselineDrop: a row's numbers sit on its description's first baseline", () => {
  test("a Japanese description lowers its line by the fonts' ascent difference (about 2.3 pt at 10 pt)", () => {
    const drop = baselineDrop(fontRuns("翻訳 — Translation work"), 10);
    expect(drop).toBeGreaterThan(2);
    expect(drop).toBeLessThan(2.6);
  });

  test("a Latin description, or a taller font only after the first line, moves nothing", () => {
    expect(baselineDrop([{ text: "Design work", font: "Roboto" }], 10)).toBe(0);
    expect(baselineDrop(fontRuns("Design work\n翻訳"), 10)).toBe(0);
  });
});
