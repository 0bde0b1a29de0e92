import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  formatUsdc,
  formatUsdcForDisplay,
  lineTotal,
  numberToDecimal,
  parseTypedUsdc,
  usdcToBaseUnits,
} from "./money.ts";

describe("usdcToBaseUnits", () => {
  test.each([
    ["100.00", 100_000_000n],
    ["0.5", 500_000n],
    ["1.123456", 1_123_456n],
    ["0.000001", 1n],
    ["0.00", 0n],
  ])("%s → %s", (input, expected) => {
    expect(usdcToBaseUnits(input)).toBe(expected);
  });

  test.each(["100", "1e2", "-1.00", "1.1234567", ".5", "01.00", "1.", " 1.00", "1,00", "０.５"])(
    "rejects %j",
    (input) => {
      expect(() => usdcToBaseUnits(input)).toThrow(RangeError);
    },
  );
});

describe("formatUsdc", () => {
  test.each([
    [150_000_000n, "150.00"],
    [125_000n, "0.125"],
    [1n, "0.000001"],
    [0n, "0.00"],
    [1_230_000n, "1.23"],
    [1_234_500n, "1.2345"],
    [-2_500_000n, "-2.50"],
  ])("%s → %s", (input, expected) => {
    expect(formatUsdc(input)).toBe(expected);
  });

  test("round-trips through usdcToBaseUnits", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 17n }), (units) => {
        expect(usdcToBaseUnits(formatUsdc(units))).toBe(units);
      }),
    );
  });
});

describe("numberToDecimal", () => {
  test.each([
    [1.5, { digits: 15n, scale: 1 }],
    [3, { digits: 3n, scale: 0 }],
    [0.1, { digits: 1n, scale: 1 }],
    [1e-7, { digits: 1n, scale: 7 }],
    [2e21, { digits: 2_000_000_000_000_000_000_000n, scale: 0 }],
    [1.25e-7, { digits: 125n, scale: 9 }],
  ])("%s", (input, expected) => {
    expect(numberToDecimal(input)).toEqual(expected);
  });
});

describe("lineTotal", () => {
  test("multiplies exactly, without floating point", () => {
    // 0.1 × 0.3 is 0.030000000000000002 in floating point
    expect(lineTotal(0.1, usdcToBaseUnits("0.30"))).toBe(30_000n);
    expect(lineTotal(3, usdcToBaseUnits("0.333333"))).toBe(999_999n);
    expect(lineTotal(2, usdcToBaseUnits("75.00"))).toBe(150_000_000n);
  });

  test("rounds half-up to 6 decimals", () => {
    expect(lineTotal(0.5, 1n)).toBe(1n); // 0.0000005 → 0.000001
    expect(lineTotal(0.4, 1n)).toBe(0n); // 0.0000004 → 0
    expect(lineTotal(1.5, usdcToBaseUnits("0.000001"))).toBe(2n); // 0.0000015 → 0.000002
    expect(lineTotal(2.5, usdcToBaseUnits("0.000003"))).toBe(8n); // 0.0000075 → 0.000008
    expect(lineTotal(0.333, usdcToBaseUnits("1.00"))).toBe(333_000n);
  });

  test("equals exact rational arithmetic for any quantity with up to 4 decimals", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 4 }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (quantityDigits, scale, price) => {
          const quantity = Number(`${quantityDigits}e-${scale}`);
          const exact = BigInt(quantityDigits) * price; // × 10^-scale
          const divisor = 10n ** BigInt(scale);
          const expected = exact / divisor + (2n * (exact % divisor) >= divisor ? 1n : 0n);
          expect(lineTotal(quantity, price)).toBe(expected);
        },
      ),
    );
  });
});

describe("formatUsdcForDisplay", () => {
  test.each([
    [1_234_567_500_000n, "1,234,567.50"],
    [999_000_000n, "999.00"],
    [1_000_000_000n, "1,000.00"],
    [-1_000_000_000n, "-1,000.00"],
    [125_000n, "0.125"],
  ])("%s → %s", (input, expected) => {
    expect(formatUsdcForDisplay(input)).toBe(expected);
  });
});

describe("parseTypedUsdc: amounts people type", () => {
  test.each([
    ["100", 100_000_000n],
    ["40", 40_000_000n],
    ["25", 25_000_000n],
    ["19.5", 19_500_000n],
    ["12.50", 12_500_000n],
    ["0.000001", 1n],
    [" 7 ", 7_000_000n],
    ["\t3.25\n", 3_250_000n],
    ["0", 0n],
    ["007", 7_000_000n],
    ["999999999999.999999", 999_999_999_999_999_999n],
  ])("%j → %s", (typed, units) => {
    expect(parseTypedUsdc(typed)).toEqual({ ok: true, units });
  });

  test.each([
    ["", /enter an amount/],
    ["   ", /enter an amount/],
    ["1.1234567", /at most 6 decimals/],
    ["-5", /negative/],
    ["1e2", /not a USDC amount/],
    ["1E-6", /not a USDC amount/],
    ["1,000", /without separators/],
    ["12,50", /without separators/],
    ["1 000", /not a USDC amount/],
    [".5", /not a USDC amount/],
    ["5.", /not a USDC amount/],
    ["+5", /not a USDC amount/],
    ["0x10", /not a USDC amount/],
    ["Infinity", /not a USDC amount/],
    ["NaN", /not a USDC amount/],
    ["１００", /not a USDC amount/],
    ["1000000000000", /too large/],
  ])("refuses %j", (typed, message) => {
    const result = parseTypedUsdc(typed);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  test("agrees with the API's strict rule wherever both accept", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 999_999_999_999_999_999n }), (units) => {
        const text = formatUsdc(units);
        expect(parseTypedUsdc(text)).toEqual({ ok: true, units: usdcToBaseUnits(text) });
      }),
    );
  });
});
