import { setTimeout as delay } from "node:timers/promises";
import {
  type EmbeddedPostgresOptions,
  ForeignPostgresError,
  type RunningPostgres,
  startEmbeddedPostgres,
} from "../db/embeddedPostgres.ts";
import type { Logger } from "../internal/logger.ts";
import { restartDelay } from "./supervisor.ts";

export type SupervisedPostgres = Pick<RunningPostgres, "url"> & {
  readonly pid: number | undefined;
  restarts: number;
  stop: () => Promise<void>;
};

/**
 * The embedded Postgres, restarted when it dies (a crash, an OOM kill) like the other
 * components: Postgres replays its WAL on start, so committed data survives, and the services
 * reconnect on their own (their pools drop broken connections; the API answers 503 meanwhile).
 * A restart can fail while the dead postmaster's backends still hold its shared memory; it is
 * retried with the same backoff as the other children.
 *
 * A restart never adopts another server: if, while ours was down, another program's Postgres
 * took the port (another Remit's, say), the restart is refused (startEmbeddedPostgres checks
 * the server's identity) and `onForeign` is told instead of retrying, so that the owner stops
 * everything whose connections would now reach that server.
 */
export async function superviseEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
  log: Logger,
  {
    onForeign = () => {},
    delayMs = restartDelay,
  }: {
    onForeign?: (error: ForeignPostgresError) => void;
    /** Before each restart attempt (the children's backoff); tests lengthen it. */
    delayMs?: (attempt: number) => number;
  } = {},
): Promise<SupervisedPostgres> {
  let current = await startEmbeddedPostgres(options);
  let stopping = false;
  const supervised: SupervisedPostgres = {
    url: current.url,
    get pid() {
      return current.pid;
    },
    restarts: 0,
    stop: async () => {
      stopping = true;
      await current.stop();
    },
  };

  const watch = (running: RunningPostgres) =>
    void running.exited.then(async ({ code, signal }) => {
      if (stopping) return;
      log.error("postgres exited unexpectedly, restarting", { code, signal });
      for (let attempt = 1; !stopping; attempt++) {
        await delay(delayMs(attempt));
        if (stopping) return;
        try {
          const restarted = await startEmbeddedPostgres(options);
          current = restarted;
          supervised.restarts++;
          if (stopping) return void (await restarted.stop());
          log.info("postgres restarted", { pid: restarted.pid, attempt });
          watch(restarted);
          return;
        } catch (error) {
          if (error instanceof ForeignPostgresError) {
            log.error("postgres not restarted: its port is held by another server", {
              error: error.message,
            });
            onForeign(error);
            return;
          }
          log.warn("postgres restart failed; retrying", { attempt, error });
        }
      }
    });
  watch(current);
  return supervised;
}
