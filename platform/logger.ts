type Level = "debug" | "info" | "warn" | "error";
const rank: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type Logger = Record<Level, (message: string, fields?: Record<string, unknown>) => void> & {
  child: (component: string) => Logger;
};

const threshold = (): number => rank[(process.env.LOG_LEVEL as Level) ?? "info"] ?? rank.info;

function format(value: unknown): string {
  if (value instanceof Error) return JSON.stringify(value.message);
  if (typeof value === "string") return /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  if (typeof value === "bigint") return value.toString();
  return JSON.stringify(value);
}

/**
 * One line per event: `time level component message key=value…`, on stdout. Plain text
 * because operators read it; the fixed key=value shape still greps and parses.
 */
export function createLogger(component: string): Logger {
  const write =
    (level: Level) =>
    (message: string, fields: Record<string, unknown> = {}): void => {
      if (rank[level] < threshold()) return;
      const extra = Object.entries(fields)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => ` ${key}=${format(value)}`)
        .join("");
      process.stdout.write(
        `${new Date().toISOString()} ${level.padEnd(5)} ${component} ${message}${extra}\n`,
      );
    };
  return {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    child: (name) => createLogger(`${component}/${name}`),
  };
}
