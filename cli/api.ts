import type { FieldError } from "../api/errors.ts";
import { CliError, EXIT } from "./io.ts";

export type ApiAnswer = { status: number; text: string; body: unknown };

/** Where the API is, and the key every call sends (REMIT_API_KEY or --api-key), if any. */
export type ApiTarget = { url: string; apiKey?: string };

/** The headers `init` asks for, plus the API key's `Authorization` when there is one. */
export function withApiKey(target: ApiTarget, headers: HeadersInit = {}): Headers {
  const all = new Headers(headers);
  if (target.apiKey) all.set("authorization", `Bearer ${target.apiKey}`);
  return all;
}

/**
 * Calls the Remit API, with the target's API key when it has one. Unreachable, or answering 5xx: exit 2 naming the URL. Answering 4xx: exit
 * 1 with the API's own message and field errors.
 */
export async function callApi(
  target: ApiTarget,
  path: string,
  init: RequestInit = {},
): Promise<ApiAnswer> {
  const url = `${target.url.replace(/\/+$/, "")}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: withApiKey(target, init.headers),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (error) {
    throw unreachable(url, error);
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

/**
 * The API's address: --api, else REMIT_API_URL, else the local service on the PORT that
 * `npm start` uses in this shell (3000 unless set).
 */
export const defaultApiUrl = (env: NodeJS.ProcessEnv = process.env): string =>
  `http://localhost:${env.PORT || "3000"}`;

/** The error for an API that could not be reached, saying how to point the CLI elsewhere. */
export function unreachable(url: string, error: unknown): CliError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return new CliError(
    `cannot reach the Remit API at ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}. ` +
      "Is it running (npm start)? Point the CLI at it with --api <url> or REMIT_API_URL.",
    EXIT.unavailable,
  );
}
