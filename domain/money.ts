import { USDC_DECIMALS } from "./constants.ts";

const SCALE = 10n ** BigInt(USDC_DECIMALS);

/** A USDC amount as a decimal string with 1–6 decimals: "100.00", "0.5", "1.123456". */
export const USDC_DECIMAL_PATTERN = /^(0|[1-9]\d{0,11})\.\d{1,6}$/;

/**
 * Converts a USDC decimal string (see USDC_DECIMAL_PATTERN) to base units.
 *
 * @example usdcToBaseUnits("1.5") // 1_500_000n
 */
export function usdcToBaseUnits(amount: string): bigint {
  if (!USDC_DECIMAL_PATTERN.test(amount))
    throw new RangeError(`not a USDC decimal amount: ${amount}`);
  const [whole = "0", fraction = ""] = amount.split(".");
  return BigInt(whole) * SCALE + BigInt(fraction.padEnd(USDC_DECIMALS, "0"));
}

/**
 * Renders base units as a decimal string with at least two decimals and no trailing zeros
 * beyond them.
 *
 * @example formatUsdc(150_000_000n) // "150.00"
 * @example formatUsdc(125_000n) // "0.125"
 */
export function formatUsdc(baseUnits: bigint): string {
  const sign = baseUnits < 0n ? "-" : "";
  const abs = baseUnits < 0n ? -baseUnits : baseUnits;
  const whole = abs / SCALE;
  let fraction = (abs % SCALE).toString().padStart(USDC_DECIMALS, "0").replace(/0+$/, "");
  if (fraction.length < 2) fraction = fraction.padEnd(2, "0");
  return `${sign}${whole}.${fraction}`;
}

/** An exact decimal: value = digits × 10^-scale. */
type Decimal = { digits: bigint; scale: number };

/**
 * The exact decimal a JS number denotes in its shortest round-trip form (what JSON carried):
 * 1.5 → 15×10⁻¹, 1e-7 → 1×10⁻⁷, 2e21 → 2×10²¹.
 */
export function numberToDecimal(value: number): Decimal {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const [mantissa = "0", exponentText = "0"] = String(value).toLowerCase().split("e");
  const [whole = "0", fraction = ""] = mantissa.split(".");
  const exponent = Number(exponentText);
  const digits = BigInt(`${whole}${fraction}`);
  const scale = fraction.length - exponent;
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

/** a / b rounded half away from zero (half-up for the positive amounts money uses). */
export function divideRoundHalfUp(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  const remainder = a % b;
  return 2n * (remainder < 0n ? -remainder : remainder) >= b
    ? quotient + (a < 0n ? -1n : 1n)
    : quotient;
}

/**
 * quantity × unit price, rounded half-up to USDC's 6 decimals, in base units.
 *
 * @example lineTotal(3, 333_333n) // 999_999n  (3 × 0.333333)
 * @example lineTotal(0.5, 1n) // 1n  (0.0000005 rounds up)
 */
export function lineTotal(quantity: number, unitPrice: bigint): bigint {
  const { digits, scale } = numberToDecimal(quantity);
  return divideRoundHalfUp(digits * unitPrice, 10n ** BigInt(scale));
}

/**
 * formatUsdc with thousands separators, for people (PDFs, emails, pages, the CLI's tables):
 * the one formatter of an amount a person reads. APIs use formatUsdc. An amount the API answered
 * (a decimal string) is taken as it is.
 *
 * @example formatUsdcForDisplay(1_234_567_500_000n) // "1,234,567.50"
 * @example formatUsdcForDisplay("1234.5") // "1,234.50"
 */
export function formatUsdcForDisplay(amount: bigint | string): string {
  const baseUnits = typeof amount === "string" ? usdcToBaseUnits(amount) : amount;
  const [whole = "0", fraction = "00"] = formatUsdc(baseUnits).split(".");
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${fraction}`;
}

/**
 * An amount a person reads, with its unit: `USDC`, or the currency an invoice or link is priced
 * in (amounts in a currency are kept like USDC's, 6 decimals). The one way a document, an email
 * or a page writes an amount in the owner's unit.
 *
 * @example formatAmountForDisplay(100_000_000n, "EUR") // "100.00 EUR"
 * @example formatAmountForDisplay(1_234_500_000n, "USDC") // "1,234.50 USDC"
 */
export function formatAmountForDisplay(amount: bigint | string, unit: string): string {
  return `${formatUsdcForDisplay(amount)} ${unit}`;
}

/** What parseTypedUsdc makes of a typed amount: base units, or why it is refused. */
export type TypedUsdc = { ok: true; units: bigint } | { ok: false; message: string };

/**
 * The one reading of an amount a person types (CLI prompts and arguments, forms): a whole
 * number or up to 6 decimals, surrounding spaces ignored, digits only — never a float. The
 * JSON API keeps its strict quoted-decimal rule (USDC_DECIMAL_PATTERN); this is for people.
 * A comma is refused rather than guessed at: "1,000" is a thousand to some and one to others.
 *
 * @example parseTypedUsdc(" 100 ") // { ok: true, units: 100_000_000n }
 * @example parseTypedUsdc("19.5") // { ok: true, units: 19_500_000n }
 * @example parseTypedUsdc("1,000") // { ok: false, message: "…without separators…" }
 */
export function parseTypedUsdc(typed: string): TypedUsdc {
  const value = typed.trim();
  if (value === "") return { ok: false, message: "enter an amount in USDC, such as 100 or 12.50" };
  if (value.includes(","))
    return {
      ok: false,
      message: `${value}: write the amount without separators, with a point for decimals (1000 or 12.50)`,
    };
  if (value.startsWith("-")) return { ok: false, message: `${value}: must not be negative` };
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return { ok: false, message: `${value}: not a USDC amount such as 100 or 12.50` };
  const [, whole = "0", fraction = ""] = match;
  if (fraction.length > USDC_DECIMALS)
    return { ok: false, message: `${value}: USDC has at most ${USDC_DECIMALS} decimals` };
  // Twelve digits is the API's own ceiling for an amount (USDC_DECIMAL_PATTERN).
  if (whole.replace(/^0+(?=\d)/, "").length > 12)
    return { ok: false, message: `${value}: too large` };
  return {
    ok: true,
    units: BigInt(whole) * SCALE + BigInt(fraction.padEnd(USDC_DECIMALS, "0")),
  };
}
