import { expect, test } from "vitest";
import { contentDispositionName } from "./contentDispositionName.ts";

test("the name the API gives, as it is", () => {
  expect(contentDispositionName('attachment; filename="INV-0001-ubl.xml"')).toBe(
    "INV-0001-ubl.xml",
  );
  expect(contentDispositionName('inline; filename="CN-0002.pdf"')).toBe("CN-0002.pdf");
  expect(contentDispositionName("attachment; filename=CN-0002-cii.xml")).toBe("CN-0002-cii.xml");
});

test("never a path, a hidden file or an odd character", () => {
  expect(contentDispositionName('inline; filename="../../.bashrc"')).toBe("bashrc");
  expect(contentDispositionName('inline; filename="C:\\\\Windows\\\\x.pdf"')).toBe("x.pdf");
  expect(contentDispositionName('inline; filename="a b;$(rm).xml"')).toBe("a-b-rm-.xml");
});

test("nothing usable: undefined, for the caller's own default", () => {
  expect(contentDispositionName(undefined)).toBeUndefined();
  expect(contentDispositionName("inline")).toBeUndefined();
  expect(contentDispositionName('inline; filename=".."')).toBeUndefined();
  expect(contentDispositionName('inline; filename=""')).toBeUndefined();
});
