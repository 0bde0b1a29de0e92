import type { FieldError } from "../api/errors.ts";
import { CliError, EXIT } from "./io.ts";

export type ApiAnswer = { status: number; text: string; body: unknown };

/** Where the API is, and the key every call sends (REMIT_API_KEY or --api-key), if any. */
export type ApiTarget = { url: string; apiKey?: string };

/** What a call sends: as fetch's init, with plain headers and a string body. */
export type ApiRequest = { method?: string; headers?: Record<string, string>; body?: string };

/** The headers asked for, plus the API key's `Authorization` when there is one. */
export function withApiKey(
  target: ApiTarget,
  headers: Record<string, string> = {},
): Record<string, string> {
  return target.apiKey ? { ...headers, authorization: `Bearer ${target.apiKey}` } : { ...headers };
}

const TIMEOUT_MS = 60_000;

/**
 * One HTTP exchange through node:http(s), its answer read whole. Not `fetch`: loading Node's
 * fetch (undici) cost every API command ~70 ms of CPU, a quarter of its start-up goal
 * (bench/cliStartup.ts).
 */
async function exchange(url: string, init: ApiRequest): Promise<{ status: number; text: string }> {
  const parsed = new URL(url);
  // As CommonJS: importing node:http as ES module evaluates its every export, fetch's
  // undici among them, the cost this avoids.
  const { request } =
    parsed.protocol === "https:"
      ? process.getBuiltinModule("node:https")
      : process.getBuiltinModule("node:http");
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers["content-length"] = String(Buffer.byteLength(init.body));
  return new Promise((resolve, reject) => {
    const outgoing = request(parsed, { method: init.method ?? "GET", headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    outgoing.setTimeout(TIMEOUT_MS, () =>
      outgoing.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })),
    );
    outgoing.on("error", reject);
    outgoing.end(init.body);
  });
}

/**
 * Calls the Remit API, with the target's API key when it has one. Unreachable, or answering 5xx: exit 2 naming the URL. Answering 4xx: exit
 * 1 with the API's own message and field errors.
 */
export async function callApi(
  target: ApiTarget,
  path: string,
  init: ApiRequest = {},
): Promise<ApiAnswer> {
  const url = `${target.url.replace(/\/+$/, "")}${path}`;
  let response: { status: number; text: string };
  try {
    response = await exchange(url, { ...init, headers: withApiKey(target, init.headers) });
  } catch (error) {
    throw unreachable(url, { cause: error });
  }
  const { text } = response;
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
