import type { IncomingMessage } from "node:http";
import type { MiddlewareHandler } from "hono";
import type { ZodType } from "zod";
import { ApiError, formatPath, validationError } from "../errors.ts";
import { jsonErrorOffset, jsonNestingOffset, lineAndColumn } from "./jsonErrorPosition.ts";
import { lingerOnClose } from "./lingeringClose.ts";
import { findUnpairedSurrogate } from "./unpairedSurrogate.ts";

/**
 * The required JSON body of `schema` that a route behind jsonBody declares, to spread into its
 * `request`.
 */
export const jsonRequestBody = <Schema extends ZodType>(schema: Schema) => ({
  body: { required: true, content: { "application/json": { schema } } },
});

/** Request bodies above this are refused with 413 before they are read in full. */
export const MAX_BODY_BYTES = 256 * 1024;

/** No body Remit accepts nests deeper than 3; 64 leaves room and bounds every recursive reader. */
export const MAX_JSON_DEPTH = 64;

/**
 * The body's bytes, or null once it grows past `limit`: read chunk by chunk, so a chunked body
 * without a Content-Length is refused at the limit, not after it is all in memory.
 */
async function readAtMost(request: Request, limit: number): Promise<ArrayBuffer | null> {
  if (!request.body) return new ArrayBuffer(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes.buffer;
}

const tooLarge = () =>
  new ApiError(
    "too_large",
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
      "unsupported_media_type",
      "unsupported_media_type",
      "the request body must be JSON (Content-Type: application/json)",
    );
  }
  const length = c.req.header("content-length");
  if (length !== undefined && Number(length) > MAX_BODY_BYTES) throw tooLarge();
  const raw = await readAtMost(c.req.raw, MAX_BODY_BYTES);
  if (!raw) {
    // The rest of an oversized body is not worth reading: the connection is closed instead,
    // lingering so that the client gets the 413 (lingeringClose.ts).
    c.header("Connection", "close");
    const socket = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket;
    if (socket) lingerOnClose(socket);
    throw tooLarge();
  }
  // The route's validator reads the body from Hono's cache. What the cache holds (and
  // HonoRequest reads back with `.then`) are promises of bodies, though its declared type names
  // the bodies themselves: Object.assign stores the promise without claiming either type.
  Object.assign(c.req.bodyCache, { arrayBuffer: Promise.resolve(raw) });
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    throw new ApiError("invalid", "invalid_json", "the request body is not valid UTF-8");
  }
  if (text.trim() === "")
    throw new ApiError(
      "invalid",
      "invalid_json",
      "the request body is empty; expected a JSON object",
    );
  const deep = jsonNestingOffset(text, MAX_JSON_DEPTH);
  if (deep >= 0) {
    const { line, column } = lineAndColumn(text, deep);
    throw new ApiError(
      "invalid",
      "invalid_json",
      `the request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels (at line ${line}, column ${column})`,
    );
  }
  const offset = jsonErrorOffset(text);
  if (offset >= 0) {
    const { line, column } = lineAndColumn(text, offset);
    const near = JSON.stringify(text.slice(offset, offset + 20));
    throw new ApiError(
      "invalid",
      "invalid_json",
      `the request body is not valid JSON: unexpected input at line ${line}, column ${column} (near ${near})`,
    );
  }
  const unpaired = findUnpairedSurrogate(JSON.parse(text));
  if (unpaired) {
    throw validationError([
      {
        path: formatPath(unpaired),
        code: "invalid_characters",
        message:
          "must be valid Unicode: it holds an unpaired surrogate (half a character, as \\ud83d is half an emoji)",
      },
    ]);
  }
  return next();
};
