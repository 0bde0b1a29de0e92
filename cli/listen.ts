import { randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { Command } from "commander";
import { signatureHeaders } from "../domain/webhookSignature.ts";
import { callApi } from "./api.ts";
import { type ApiOptions, targetOf } from "./commandKit.ts";
import { CliError, EXIT } from "./io.ts";

type Event = { event_id: string; type: string; created_at: string } & Record<string, unknown>;
type Page = { data: Event[]; next_cursor: string | null };

/** How often the event log is read: about the delay of a real delivery. */
const POLL_MS = 1_000;
/**
 * Events are ordered by their creation time, which is their transaction's start: one that
 * commits late can land just below the newest seen. Re-reading this far back (deduplicated by
 * event id) catches it.
 */
const LATE_COMMIT_MS = 60_000;

/** `whsec_` + 24 random bytes in base64: the shape of an endpoint's secret, new each run. */
export const newListenSecret = (): string => `whsec_${randomBytes(24).toString("base64")}`;

/**
 * Reads the merchant's event log (GET /api/events, newest first) every second and POSTs each
 * new event, oldest first, to `forwardTo`, signed as a webhook endpoint's delivery would be.
 * What was seen is kept in memory, so an API that goes away and comes back costs nothing:
 * the next read picks up every event created meanwhile.
 */
export async function listen(
  options: ApiOptions & { forwardTo: string; events?: string; secret: string },
  signal: AbortSignal,
): Promise<void> {
  const target = targetOf(options);
  const seen = new Set<string>();
  let newest = 0;
  // Below the first read's last row, history this run never replays (a first page full of
  // recent events would otherwise leave the rows under it looking new).
  let floor = 0;
  let down = false;
  let first = true;

  const read = async (): Promise<Event[]> => {
    const fresh: Event[] = [];
    let cursor: string | null = null;
    do {
      const params = new URLSearchParams({ limit: "200" });
      if (options.events) params.set("type", options.events);
      if (cursor) params.set("cursor", cursor);
      const page = (await callApi(target, `/api/events?${params}`)).body as Page;
      let older = false;
      for (const event of page.data) {
        const at = Date.parse(event.created_at);
        if (at < newest - LATE_COMMIT_MS || at < floor) {
          older = true;
          break;
        }
        if (!seen.has(event.event_id)) fresh.push(event);
      }
      // The first read only marks where the run starts: history is not replayed.
      if (first && page.next_cursor) {
        const last = page.data[page.data.length - 1];
        if (last) floor = Date.parse(last.created_at);
      }
      cursor = older || first ? null : page.next_cursor;
    } while (cursor);
    return fresh.reverse();
  };

  while (!signal.aborted) {
    let events: Event[];
    try {
      events = await read();
      if (down) process.stderr.write("reconnected to the Remit API\n");
      down = false;
    } catch (error) {
      // A refused key or a bad --events will not get better: stop. Anything else: retry.
      if (error instanceof CliError && error.exitCode === EXIT.invalid) throw error;
      if (!down) process.stderr.write(`${(error as Error).message}\nretrying every second…\n`);
      down = true;
      await delay(POLL_MS, undefined, { signal }).catch(() => {});
      continue;
    }
    for (const event of events) {
      seen.add(event.event_id);
      newest = Math.max(newest, Date.parse(event.created_at));
      if (!first) await forward(event, options.forwardTo, options.secret);
    }
    if (first) process.stderr.write("ready: waiting for events (Ctrl-C to stop)\n");
    first = false;
    await delay(POLL_MS, undefined, { signal }).catch(() => {});
  }
}

/** One delivery: the event's JSON, signed with the run's secret; its outcome as one line. */
async function forward(event: Event, url: string, secret: string): Promise<void> {
  const body = JSON.stringify(event);
  const headers = signatureHeaders(event.event_id, body, [secret], Math.floor(Date.now() / 1000));
  const started = Date.now();
  let outcome: string;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    outcome = `${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    outcome = `failed: ${cause?.code ?? (error as Error).message}`;
  }
  process.stdout.write(
    `${event.created_at}  ${event.type.padEnd(24)}  ${event.event_id}  → ${outcome} [${Date.now() - started} ms]\n`,
  );
}

export function registerListen(program: Command, common: (command: Command) => Command): void {
  common(
    program
      .command("listen")
      .description(
        "development: forward your events, as they happen, to a local URL, signed with a secret printed at start",
      )
      .requiredOption(
        "--forward-to <url>",
        "where to POST each event, e.g. http://localhost:4000/hooks",
      )
      .option("--events <types>", "only these event types, comma-separated (default: all)"),
  ).action(async (options: ApiOptions & { forwardTo: string; events?: string }) => {
    const secret = newListenSecret();
    process.stderr.write(
      `forwarding events to ${options.forwardTo}; verify them with this run's secret:\n`,
    );
    // The secret alone on stdout's first line: `remit listen … | head -n 1` gives it to a script.
    process.stdout.write(`${secret}\n`);
    const controller = new AbortController();
    process.once("SIGINT", () => controller.abort());
    process.once("SIGTERM", () => controller.abort());
    await listen({ ...options, secret }, controller.signal);
  });
}
