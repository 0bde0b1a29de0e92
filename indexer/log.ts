/**
 * One JSON log line on stdout, as the supervisor passes our processes' lines on
 * (platform/childLogLine.ts). Not a logging library: the indexer loads what Ponder loads, and
 * what it says of its own is rare (addresses learnt late, their catch-up).
 */
export function indexerLog(
  level: "info" | "warn",
  msg: string,
  fields: Record<string, unknown> = {},
): void {
  process.stdout.write(
    `${JSON.stringify({ level, time: new Date().toISOString(), component: "indexer", ...fields, msg })}\n`,
  );
}
