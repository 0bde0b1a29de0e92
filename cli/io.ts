import { styleText } from "node:util";
import type { FieldError } from "../api/errors.ts";
import { jsonErrorOffset, lineAndColumn } from "../api/middleware/jsonErrorPosition.ts";

/** Exit codes: 0 done, 1 invalid input or refused by the API, 2 API unreachable or failing, 64 usage. */
export const EXIT = { ok: 0, invalid: 1, unavailable: 2, usage: 64, cancelled: 130 } as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly fields?: FieldError[],
    /** The API's error code, when the API refused (`einvoice_fields_missing`, …). */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The user stopped (Ctrl-C, or "no" at a confirmation) and was already told: nothing more to print. */
export class CliCancelled extends CliError {
  constructor() {
    super("cancelled", EXIT.cancelled);
  }
}

/** Colour only for a terminal, and never with NO_COLOR set. */
const useColour = (stream: NodeJS.WriteStream): boolean =>
  Boolean(stream.isTTY) && !process.env.NO_COLOR;

function paint(
  format: Parameters<typeof styleText>[0],
  text: string,
  stream: NodeJS.WriteStream = process.stderr,
): string {
  return useColour(stream) ? styleText(format, text) : text;
}

/** Reads all of standard input as text. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Parses JSON, or fails naming the line and column where it goes wrong. */
export function parseJson(text: string, source: string): unknown {
  if (text.trim() === "")
    throw new CliError(`${source} is empty; expected a JSON object`, EXIT.invalid);
  const offset = jsonErrorOffset(text);
  if (offset >= 0) {
    const { line, column } = lineAndColumn(text, offset);
    throw new CliError(
      `${source} is not valid JSON: unexpected input at line ${line}, column ${column}`,
      EXIT.invalid,
    );
  }
  return JSON.parse(text);
}

/** JSON on stdout: the only thing there, so output pipes into jq and friends. */
export function printJson(value: unknown): void {
  process.stdout.write(`${typeof value === "string" ? value : JSON.stringify(value, null, 2)}\n`);
}

/** An error on stderr: the API's JSON error shape with --json, readable lines otherwise. */
export function printError(error: CliError, json: boolean): void {
  if (error instanceof CliCancelled) return;
  if (json) {
    process.stderr.write(
      `${JSON.stringify({ error: { code: error.code ?? (error.fields ? "validation_failed" : "error"), message: error.message, ...(error.fields ? { fields: error.fields } : {}) } }, null, 2)}\n`,
    );
    return;
  }
  process.stderr.write(`${paint("red", "error:")} ${error.message}\n`);
  for (const field of error.fields ?? []) {
    process.stderr.write(
      `  ${paint("bold", field.path || "(body)")}: ${field.message} ${paint("dim", `[${field.code}]`)}\n`,
    );
  }
}
