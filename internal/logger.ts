import { writeSync } from "node:fs";
import pino, { type DestinationStream } from "pino";
import { currentLogContext } from "./logContext.ts";
import { type LogFormat, prettyLogLine, resolveLogFormat } from "./logFormat.ts";
import { secretRedactor } from "./redactSecrets.ts";

type Level = "debug" | "info" | "warn" | "error";
const levels: readonly string[] = ["debug", "info", "warn", "error"];

export type Logger = Record<Level, (message: string, fields?: Record<string, unknown>) => void> & {
  child: (component: string) => Logger;
  /** Whether lines of `level` are written: a hot path skips building a line nobody reads. */
  isEnabled?: (level: Level) => boolean;
};

/** Keys the line itself owns; a field of the same name is written as `_<name>` instead. */
const reserved = new Set(["time", "level", "component", "msg"]);

/** A field's value as JSON can carry it: bigints as decimal strings, errors as their message. */
function logValue(value: unknown): unknown {
  if (value instanceof Error) return value.message;
  if (typeof value === "bigint") return value.toString();
  return value;
}

/** Whether a write failed because nobody reads standard output any more. */
const isGoneReader = (error: unknown) =>
  error instanceof Error && ["EIO", "EPIPE"].includes((error as NodeJS.ErrnoException).code ?? "");

/**
 * Standard output, written synchronously, that goes quiet once its reader is gone: a closed
 * terminal (EIO) or a closed pipe (EPIPE) must not crash a process in the middle of its clean
 * stop; the lines have nowhere to go.
 */
const standardOutput: DestinationStream = {
  write(line: string) {
    try {
      writeSync(1, line);
    } catch (error) {
      if (!isGoneReader(error)) throw error;
    }
  },
};

/**
 * The pino instance every Logger of a process writes through: one JSON object per line with
 * `time` (ISO 8601), `level` (its name), `component`, `msg`, the fields, and the fields of the
 * request or job in progress (internal/logContext.ts). Writes are synchronous so that the
 * last lines before a crash or `process.exit` are not lost. Every line is written with the
 * configured RPC URLs' keys and database passwords masked (`redact`, internal/redactSecrets.ts),
 * wherever in the line they are: a message, a field, an error's text. On a terminal (or with
 * LOG_FORMAT=pretty) each line is written readable instead (internal/logFormat.ts).
 */
export function createRootLogger(
  level: string | undefined = process.env.LOG_LEVEL,
  destination: DestinationStream = standardOutput,
  redact: (line: string) => string = secretRedactor(process.env),
  format: LogFormat = resolveLogFormat(process.env.LOG_FORMAT, process.stdout.isTTY === true),
): pino.Logger {
  const written =
    format === "pretty" ? (line: string) => `${prettyLogLine(line)}\n` : (line: string) => line;
  return pino(
    {
      level: level && levels.includes(level) ? level : "info",
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // A copy: pino merges the line's fields into the object the mixin returns.
      mixin: () => ({ ...currentLogContext() }),
    },
    { write: (line: string) => destination.write(written(redact(line))) },
  );
}

let processRoot: pino.Logger | undefined;

/** The process's root, made on first use: after the environment is final. */
function processRootLogger(): pino.Logger {
  if (!processRoot) processRoot = createRootLogger();
  return processRoot;
}

/**
 * A logger for one component (`api`, `worker`, `remit/indexer`). The interface is the project's
 * own so that no call site depends on pino.
 *
 * @example
 * createLogger("api").info("listening", { address: "127.0.0.1:3000" });
 * // {"level":"info","time":"…","component":"api","address":"127.0.0.1:3000","msg":"listening"}
 */
export function createLogger(component: string, root?: pino.Logger): Logger {
  const base = root ?? processRootLogger();
  const target = base.child({ component });
  const write =
    (level: Level) =>
    (message: string, fields: Record<string, unknown> = {}): void => {
      if (!target.isLevelEnabled(level)) return;
      const line: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(fields)) {
        if (value !== undefined) line[reserved.has(key) ? `_${key}` : key] = logValue(value);
      }
      target[level](line, message);
    };
  return {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    child: (name) => createLogger(`${component}/${name}`, base),
    isEnabled: (level) => target.isLevelEnabled(level),
  };
}
