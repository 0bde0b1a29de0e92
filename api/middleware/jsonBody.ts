import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors.ts";

/** Request bodies above this are refused with 413 before they are read in full. */
export const MAX_BODY_BYTES = 256 * 1024;

/** Where a JSON.parse error points, as line and column (V8 reports a character position). */
function locate(text: string, message: string): string {
  const position = /position (\d+)/.exec(message)?.[1];
  if (position === undefined) return "";
  const before = text.slice(0, Number(position));
  const line = before.split("\n").length;
  const column = Number(position) - before.lastIndexOf("\n");
  return ` at line ${line}, column ${column}`;
}

/**
 * For requests with a body: it must be JSON (415 otherwise), at most MAX_BODY_BYTES (413)
 * and well-formed (400 `invalid_json` naming the line and column). The parsed body is left in
 * Hono's cache, so the route's validator reads it without parsing again.
 */
export const jsonBody: MiddlewareHandler = async (c, next) => {
  const length = c.req.header("content-length");
  const hasBody =
    (length !== undefined && length !== "0") || c.req.header("transfer-encoding") !== undefined;
  if (!hasBody) return next();
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw new ApiError(
      415,
      "unsupported_media_type",
      "the request body must be JSON (Content-Type: application/json)",
    );
  }
  if (length !== undefined && Number(length) > MAX_BODY_BYTES) {
    throw new ApiError(
      413,
      "payload_too_large",
      `the request body must be at most ${MAX_BODY_BYTES} bytes`,
    );
  }
  const raw = await c.req.arrayBuffer();
  if (raw.byteLength > MAX_BODY_BYTES) {
    throw new ApiError(
      413,
      "payload_too_large",
      `the request body must be at most ${MAX_BODY_BYTES} bytes`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    throw new ApiError(400, "invalid_json", "the request body is not valid UTF-8");
  }
  try {
    JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    throw new ApiError(
      400,
      "invalid_json",
      `the request body is not valid JSON${locate(text, message)}: ${message}`,
    );
  }
  return next();
};
