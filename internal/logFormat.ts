/**
 * How log lines are written: JSON (one object a line, for collectors and pipes) or `pretty`
 * (one readable line, for a person at a terminal). LOG_FORMAT chooses; unset, a terminal on
 * standard output gets `pretty` and anything else JSON.
 */
export type LogFormat = "json" | "pretty";

export function resolveLogFormat(setting: string | undefined, isTTY: boolean): LogFormat {
  if (setting === "json" || setting === "pretty") return setting;
  return isTTY ? "pretty" : "json";
}

/** The keys every line owns, written first; everything else follows as key=value. */
const OWN_KEYS = new Set(["time", "level", "component", "msg"]);

const fieldValue = (value: unknown): string => {
  if (typeof value === "string") return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
};

/**
 * One JSON log line as a person reads it: `14:03:09.123 INFO  api: listening address=…`
 * (the UTC time of day). A line that is not a JSON object is returned as it is.
 *
 * @example prettyLogLine('{"level":"warn","time":"2026-05-01T14:03:09.123Z","component":"worker","msg":"slow","ms":900}')
 * // "14:03:09.123 WARN  worker: slow ms=900"
 */
export function prettyLogLine(line: string): string {
  const trimmed = line.replace(/\n$/, "");
  let entry: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return trimmed;
    entry = parsed as Record<string, unknown>;
  } catch {
    return trimmed;
  }
  const time = typeof entry.time === "string" ? (entry.time.split("T")[1] ?? entry.time) : "";
  const level = String(entry.level ?? "info")
    .toUpperCase()
    .padEnd(5);
  const component = entry.component ? `${String(entry.component)}: ` : "";
  const fields = Object.entries(entry)
    .filter(([key, value]) => !OWN_KEYS.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${fieldValue(value)}`);
  return [`${time.replace(/Z$/, "")} ${level} ${component}${String(entry.msg ?? "")}`, ...fields]
    .join(" ")
    .trimEnd();
}
