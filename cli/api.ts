import type { FieldError } from "../api/errors.ts";
import { CliError, EXIT } from "./io.ts";

export type ApiAnswer = { status: number; text: string; body: unknown };

/**
 * Calls the Remit API. Unreachable, or answering 5xx: exit 2 naming the URL. Answering 4xx: exit
 * 1 with the API's own message and field errors.
 */
export async function callApi(
  base: string,
  path: string,
  init: RequestInit = {},
): Promise<ApiAnswer> {
  const url = `${base.replace(/\/+$/, "")}${path}`;
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(
      `cannot reach the Remit API at ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      EXIT.unavailable,
    );
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (a PDF, or a proxy's HTML error page)
  }
  if (response.status >= 500) {
    throw new CliError(
      `the Remit API at ${url} failed with HTTP ${response.status}`,
      EXIT.unavailable,
    );
  }
  if (response.status >= 400) {
    const error = (body as { error?: { message?: string; fields?: FieldError[] } }).error;
    throw new CliError(error?.message ?? `HTTP ${response.status}`, EXIT.invalid, error?.fields);
  }
  return { status: response.status, text, body };
}
