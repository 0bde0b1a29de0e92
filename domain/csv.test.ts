import { describe, expect, test } from "vitest";
import { csvCell, csvRow, csvTime, exportFileName, fileNamePart } from "./csv.ts";

describe("csvCell", () => {
  test("plain text passes as it is", () => {
    expect(csvCell("Globex Corporation")).toBe("Globex Corporation");
    expect(csvCell("150.125")).toBe("150.125");
    expect(csvCell("")).toBe("");
    expect(csvCell(null)).toBe("");
  });

  test("commas, quotes and line breaks are enclosed, quotes doubled (RFC 4180)", () => {
    expect(csvCell("Globex, Inc.")).toBe('"Globex, Inc."');
    expect(csvCell('The "premium" plan')).toBe('"The ""premium"" plan"');
    expect(csvCell("line 1\nline 2")).toBe('"line 1\nline 2"');
    expect(csvCell("a\r\nb")).toBe('"a\r\nb"');
  });

  test.each([
    ['=HYPERLINK("https://evil.example","x")', '"\'=HYPERLINK(""https://evil.example"",""x"")"'],
    ["+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1:A2)", "'@SUM(A1:A2)"],
    ["\t=1+1", "'\t=1+1"],
    ["\r=1+1", '"\'\r=1+1"'],
  ])("a cell beginning like a formula is inert: %j", (value, encoded) => {
    expect(csvCell(value)).toBe(encoded);
  });

  test("a formula character later in the cell is left alone", () => {
    expect(csvCell("a=b")).toBe("a=b");
    expect(csvCell("ap@globex.example")).toBe("ap@globex.example");
  });
});

describe("csvRow", () => {
  test("fields joined by commas, the record ended by CRLF", () => {
    expect(csvRow(["INV-0001", "Globex, Inc.", null, "150.00"])).toBe(
      'INV-0001,"Globex, Inc.",,150.00\r\n',
    );
  });
});

describe("what spreadsheets read", () => {
  test("a time as a date and time Excel reads, in UTC, to the second", () => {
    expect(csvTime(new Date("2026-11-26T12:45:36.789Z"))).toBe("2026-11-26 12:45:36");
  });
  test("a file name with the merchant and the dates", () => {
    expect(fileNamePart("Acme Ltd.")).toBe("acme-ltd");
    expect(fileNamePart("Café Größe")).toBe("cafe-grosse");
    expect(fileNamePart("日本語")).toBe("");
    expect(exportFileName(["Acme Ltd"], "invoices", "2026-11-01", "2026-11-30", "2026-12-01")).toBe(
      "acme-ltd_invoices_2026-11-01_2026-11-30.csv",
    );
    expect(
      exportFileName([null, "日本語", "acme"], "payments", undefined, undefined, "2026-12-01"),
    ).toBe("acme_payments_all_2026-12-01.csv");
    expect(exportFileName([], "payments", "2026-11-01T00:00:00Z", undefined, "2026-12-01")).toBe(
      "remit_payments_2026-11-01_2026-12-01.csv",
    );
    // The receivables report: whose, and the day it is counted on (issue 42: it had no merchant).
    expect(exportFileName(["Acme Ltd"], "receivables", undefined, undefined, "2026-12-01")).toBe(
      "acme-ltd_receivables_2026-12-01.csv",
    );
  });
});
