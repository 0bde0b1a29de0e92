import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors.ts";
import { jsonErrorOffset, lineAndColumn } from "./jsonErrorPosition.ts";

/** Request bodies above this are refused with 413 before they are read in full. */
export const MAX_BODY_BYTES = 256 * 1024;

const tooLarge = () =>
  new ApiError(
    413,
    "payload_too_large",
    `the request body must be at most ${MAX_BODY_BYTES} bytes`,
  );

/**
 * For routes that take a JSON body: it must be present, JSON (415 otherwise), at most
 * MAX_BODY_BYTES (413) and well-formed (400 `invalid_json` naming the line and column). The
 * body stays in Hono's cache, so the route's validator reads it without fetching it again.
 */
export const jsonBody: MiddlewareHandler = async (c, next) => {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw new ApiError(
      415,
      "unsupported_media_type",
      "the request body must be JSON (Content-Type: application/json)",
    );
  }
  const length = c.req.header("content-length");
  if (length !== undefined && Number(length) > MAX_BODY_BYTES) throw tooLarge();
  const raw = await c.req.arrayBuffer();
  if (raw.byteLength > MAX_BODY_BYTES) throw tooLarge();
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    throw new ApiError(400, "invalid_json", "the request body is not valid UTF-8");
  }
  if (text.trim() === "")
    throw new ApiError(400, "invalid_json", "the request body is empty; expected a JSON object");
  const offset = jsonErrorOffset(text);
  if (offset >= 0) {
    const { line, column } = lineAndColumn(text, offset);
    const near = JSON.stringify(text.slice(offset, offset + 20));
    throw new ApiError(
      400,
      "invalid_json",
      `the request body is not valid JSON: unexpected input at line ${line}, column ${column} (near ${near})`,
    );
  }
  return next();
};
