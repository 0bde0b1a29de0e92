import { describe, expect, test } from "vitest";
import { csvCell, csvRow } from "./csv.ts";

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
