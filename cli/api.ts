import type { IncomingHttpHeaders } from "node:http";
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

/** An answer as it came: its status, headers and bytes. */
type Exchanged = { status: number; headers: IncomingHttpHeaders; bytes: Buffer };

/**
 * One HTTP exchange through node:http(s), its answer read whole. Not `fetch`: loading Node's
 * fetch (undici) cost every API command ~70 ms of CPU, a quarter of its start-up goal
 * (bench/cliStartup.ts).
 */
async function exchange(url: string, init: ApiRequest): Promise<Exchanged> {
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
          headers: response.headers,
          bytes: Buffer.concat(chunks),
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
 * One call to the Remit API, with the target's API key when it has one. Unreachable, or
 * answering 5xx: exit 2 naming the URL. Answering 4xx: exit 1 with the API's own message, error
 * code and field errors (a 409 `einvoice_fields_missing` names the fields to add).
 */
async function send(target: ApiTarget, path: string, init: ApiRequest): Promise<Exchanged> {
  const url = `${target.url.replace(/\/+$/, "")}${path}`;
  let response: Exchanged;
  try {
    response = await exchange(url, { ...init, headers: withApiKey(target, init.headers) });
  } catch (error) {
    throw unreachable(url, { cause: error });
  }
  if (response.status >= 500) {
    throw new CliError(
      `the Remit API at ${url} failed with HTTP ${response.status}`,
      EXIT.unavailable,
    );
  }
  if (response.status >= 400) {
    const error = (parsed(response.bytes.toString("utf8")) as { error?: ApiErrorBody } | null)
      ?.error;
    throw new CliError(
      error?.message ?? `HTTP ${response.status}`,
      EXIT.invalid,
      error?.fields,
      error?.code,
    );
  }
  return response;
}

type ApiErrorBody = { code?: string; message?: string; fields?: FieldError[] };

/** JSON's value, or null for what is not JSON (a PDF, or a proxy's HTML error page). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Calls the Remit API and reads its answer as text (and JSON, when it is): see `send`. */
export async function callApi(
  target: ApiTarget,
  path: string,
  init: ApiRequest = {},
): Promise<ApiAnswer> {
  const response = await send(target, path, init);
  const text = response.bytes.toString("utf8");
  return { status: response.status, text, body: parsed(text) ?? text };
}

/**
 * Downloads a file the API serves (a PDF, an e-invoice): its bytes as they are, and the file
 * name its `Content-Disposition` gives, if any. Refusals as `callApi`'s.
 */
export async function downloadFromApi(
  target: ApiTarget,
  path: string,
): Promise<{ bytes: Buffer; contentDisposition: string | undefined }> {
  const response = await send(target, path, {});
  return { bytes: response.bytes, contentDisposition: response.headers["content-disposition"] };
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
