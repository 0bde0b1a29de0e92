import { getAddress, isAddress } from "viem";
import { formatUsdc, parseTypedUsdc } from "../domain/money.ts";

/**
 * What is typed at a prompt, made into the API's value. A prompt is not JSON: quotes mean
 * nothing there, so a whole number of USDC is taken as it is meant (parseTypedUsdc). What the
 * parser refuses is left as typed: promptAmountProblem says why, before the API's rule does.
 *
 * @example promptAmount("100") // "100.00"
 */
export function promptAmount(typed: string): string {
  const parsed = parseTypedUsdc(typed);
  return parsed.ok ? formatUsdc(parsed.units) : typed.trim();
}

/** Why a typed amount is refused (the parser's own message), or undefined when it is not. */
export function promptAmountProblem(typed: string): string | undefined {
  const parsed = parseTypedUsdc(typed);
  return parsed.ok ? undefined : parsed.message;
}

/**
 * A quantity: empty means the default shown as the placeholder (1). Never pre-filled, so no
 * digit the user did not type ends up in it.
 *
 * @example promptQuantity("") // 1
 */
export function promptQuantity(typed: string): number {
  const value = typed.trim();
  return value === "" ? 1 : Number(value);
}

/** The due date offered when Enter is pressed on an empty prompt: `days` after `today`. */
export function defaultDueDate(today: string, days = 30): string {
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * An address typed in lower or upper case is checksummed for the user; one whose mixed case
 * is a wrong checksum is left as typed, so the API's own message explains it.
 *
 * @example promptAddress("0xd8da6bf26964af9d7eed9e03e53415d37aa96045") // "0xd8dA6BF2…6045"
 */
export function promptAddress(typed: string): string {
  const value = typed.trim();
  const singleCase =
    value.slice(2) === value.slice(2).toLowerCase() ||
    value.slice(2) === value.slice(2).toUpperCase();
  return singleCase && isAddress(value, { strict: false }) ? getAddress(value) : value;
}
