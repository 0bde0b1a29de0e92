/** Ponder's own line format: `19:49:21.437 WARN  Received SIGTERM`. */
const PONDER_LINE = /^\d{2}:\d{2}:\d{2}\.\d{3} (TRACE|DEBUG|INFO|WARN|ERROR|FATAL)\s+(.*)$/;
/** Node's own warnings: `(node:123) DeprecationWarning: …`. */
const NODE_WARNING = /^\(node:\d+\) (\w*Warning): (.*)$/;

const LEVELS: Record<string, string> = {
  TRACE: "debug",
  DEBUG: "debug",
  INFO: "info",
  WARN: "warn",
  ERROR: "error",
  FATAL: "error",
};

/**
 * A child's output line as one JSON log line. Our processes already write JSON (passed on as
 * it is); Ponder and Node write plain text, which is wrapped with its level where the text
 * names one, so the whole stream is what the docs promise: one JSON object per line.
 *
 * @example childLogLine("12:00:00.000 WARN  Received SIGTERM", "indexer", now)
 * // {"level":"warn","time":"…","component":"indexer","msg":"Received SIGTERM"}
 */
export function childLogLine(line: string, component: string, now: Date): string {
  if (line.startsWith("{")) {
    try {
      JSON.parse(line);
      return line;
    } catch {
      // Not JSON after all: wrapped below.
    }
  }
  const ponder = PONDER_LINE.exec(line);
  const warning = NODE_WARNING.exec(line);
  const level = ponder ? (LEVELS[ponder[1] ?? ""] ?? "info") : warning ? "warn" : "info";
  const msg = ponder ? (ponder[2] ?? "") : warning ? `${warning[1]}: ${warning[2]}` : line;
  return JSON.stringify({ level, time: now.toISOString(), component, msg });
}
