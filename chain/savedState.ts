import { open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { fileExists } from "../internal/fileExists.ts";
import type { Anvil } from "./anvil.ts";
import { rpcBatchRequest, rpcRequest } from "./rpc.ts";

const gunzipAsync = promisify(gunzip);

/** How often a running chain is looked at for a transaction to save (anvil's dump was 2 s). */
const STATE_SAVE_MS = 2_000;

/** A save that takes longer than this is given up (a stopped anvil must not hold up a stop). */
const SAVE_TIMEOUT_MS = 15_000;

/** Blocks looked at in one tick; more since the last (a test's `anvil_mine`) is saved unread. */
const BLOCKS_PER_TICK = 32;

type Seen = { number: number; hash: string };
type Block = { number: string; hash: string; transactions: string[] };

/**
 * Keeps `file` a whole copy of anvil's state while it runs: every STATE_SAVE_MS, when a block
 * holding a transaction was mined since the last look (or the chain was rewound under it), the
 * state anvil dumps over JSON-RPC (`anvil_dumpState`, gzip) is written beside `file`, flushed and
 * renamed over it. Anvil's own `--state-interval` writes its file in place, so a kill -9 during a
 * write left it cut short and the start after it fell back to an older state, losing every
 * payment since (docs/development.md, "The local chain across restarts"); a rename is never half
 * done. Empty blocks are not worth a save: the whole state dumped every 2 s cost the stack
 * ~60 MB at rest (anvil's allocator and the supervisor's heap, `BENCH_ONLY=memory`), and a chain
 * resumed a few empty blocks short holds every payment. Anvil still writes its own dump
 * (`--dump-state`) when it exits on SIGINT: newer than this one. What changes the state with no
 * transaction (a balance set by a test) is saved with the next transaction, or by that dump.
 */
async function keepStateSaved(
  anvil: Anvil,
  file: string,
  onWarn?: (line: string) => void,
): Promise<Anvil> {
  const latest = await rpcRequest<Block>(anvil.url, "eth_getBlockByNumber", ["latest", false]);
  let seen: Seen = { number: Number(latest.number), hash: latest.hash };
  let failing = false;
  let running: Promise<void> = Promise.resolve();

  const saveOnce = async (): Promise<void> => {
    const signal = AbortSignal.timeout(SAVE_TIMEOUT_MS);
    const moved = await transactedSince(anvil.url, seen, signal);
    if (!moved.transacted) {
      seen = moved.head;
      return;
    }
    // Historical states preserved, as `--preserve-historical-states` keeps them in anvil's dump.
    const dump = await rpcRequest<string>(anvil.url, "anvil_dumpState", [true], { signal });
    const state = await gunzipAsync(Buffer.from(dump.slice(2), "hex"));
    const partial = `${file}.partial`;
    const handle = await open(partial, "w");
    try {
      await handle.writeFile(state);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
    seen = moved.head;
  };

  /** One save at a time: the stop waits for the one under way. */
  const save = (): Promise<void> => {
    running = running.then(() =>
      saveOnce().then(
        () => {
          failing = false;
        },
        (error: Error) => {
          // Anvil told to stop (its exit dump follows), or gone, is not a failure to report.
          if (exited || anvil.process.killed) return;
          // Once per run of failures.
          if (!failing) onWarn?.(`could not save the local chain's state: ${error.message}`);
          failing = true;
        },
      ),
    );
    return running;
  };

  let ticking = false;
  const timer = setInterval(() => {
    if (ticking) return;
    ticking = true;
    save().finally(() => {
      ticking = false;
    });
  }, STATE_SAVE_MS);
  timer.unref();
  // The supervisor stops anvil itself (the stop registered at its spawn), not through `stop`.
  let exited = false;
  anvil.process.once("exit", () => {
    exited = true;
    clearInterval(timer);
  });

  return {
    ...anvil,
    stop: async () => {
      clearInterval(timer);
      await running;
      await anvil.stop();
    },
  };
}

/**
 * Whether a block mined after `seen` holds a transaction, or `seen` is no longer on the chain
 * (rewound); and the head. One batch: `seen`'s block again, the next ones, and the head's.
 */
async function transactedSince(
  url: string,
  seen: Seen,
  signal: AbortSignal,
): Promise<{ transacted: boolean; head: Seen }> {
  const head = Number(await rpcRequest<string>(url, "eth_blockNumber", [], { signal }));
  const newer: number[] = [];
  for (let n = seen.number + 1; n <= Math.min(head, seen.number + BLOCKS_PER_TICK); n++)
    newer.push(n);
  const numbers = [
    seen.number,
    ...newer,
    ...((newer.at(-1) ?? seen.number) === head ? [] : [head]),
  ];
  const blocks = await rpcBatchRequest<Block | null>(
    url,
    numbers.map((n) => ({
      method: "eth_getBlockByNumber",
      params: [`0x${n.toString(16)}`, false],
    })),
    { signal },
  );
  const [again, ...rest] = blocks;
  const last = blocks.at(-1);
  if (!last) throw new Error(`block ${head}, the head, is not on the chain`);
  return {
    transacted:
      again?.hash !== seen.hash ||
      head > seen.number + BLOCKS_PER_TICK ||
      rest.slice(0, newer.length).some((block) => !block || block.transactions.length > 0),
    head: { number: Number(last.number), hash: last.hash },
  };
}

/** Anvil's refusal of a state file it cannot parse (exit code 2, before it serves). */
const STATE_REFUSED = /for '--load-state/;

export type StateFiles = {
  /** The directory of the chain's state files. */
  dir: string;
  /** How the notes name the chain ("the local chain"). */
  label: string;
  /** What is started from when no state is kept: a file (a genesis), or none. */
  fresh: () => Promise<{ file?: string; note: string }>;
  /** Starts anvil loading `loadState` (if any) and dumping to `dumpState` on exit. */
  start: (loadState: string | undefined, dumpState: string) => Promise<Anvil>;
  onNote?: (line: string) => void;
  /** What the operator should know of: a state lost (default: onNote). */
  onWarn?: (line: string) => void;
};

/**
 * Anvil started from the newest complete state in `dir`, and its state saved whole while it
 * runs (keepStateSaved). Anvil writes `state.json` in place (not to a new file renamed over
 * it) at its exit: a kill -9 of anvil or of the machine during that write leaves it cut short,
 * and anvil refuses to start from it. So the state a start loads is first moved aside
 * (`state.loading.json`, out of reach of the new anvil's dump), and kept once anvil has loaded
 * it (`state.loaded.json`). Newest first: anvil's exit dump; else (anvil was killed, or its
 * dump cannot be loaded, set aside as `state.unreadable.json`) the state saved whole while it
 * ran, at most two seconds old; else the state the previous start loaded. A state older than
 * the index has the index rebuilt (platform/indexCheck.ts).
 */
export async function startFromNewestState(files: StateFiles): Promise<Anvil> {
  const { dir, label } = files;
  const state = path.join(dir, "state.json");
  const loading = path.join(dir, "state.loading.json");
  const loaded = path.join(dir, "state.loaded.json");
  const saved = path.join(dir, "state.saved.json");
  // Without state.json, a start that died before anvil loaded it left state.loading.json.
  if (await fileExists(state)) await rename(state, loading);
  const attempts: Array<{ file?: string; note: string }> = [];
  if (await fileExists(loading))
    attempts.push({ file: loading, note: `resuming ${label} from ${state}` });
  if (await fileExists(saved))
    attempts.push({
      file: saved,
      note: `resuming ${label} from ${saved}, its state saved while it last ran`,
    });
  if (await fileExists(loaded))
    attempts.push({
      file: loaded,
      note: `resuming ${label} from ${loaded}, the state its previous start loaded`,
    });
  if (!attempts.length) attempts.push(await files.fresh());
  for (const [index, attempt] of attempts.entries()) {
    files.onNote?.(attempt.note);
    let anvil: Anvil;
    try {
      anvil = await files.start(attempt.file, state);
    } catch (error) {
      const next = attempts[index + 1];
      if (!next || !attempt.file || !STATE_REFUSED.test((error as Error).message)) throw error;
      const unreadable = path.join(dir, "state.unreadable.json");
      await rename(attempt.file, unreadable);
      (files.onWarn ?? files.onNote)?.(
        `anvil cannot load ${label}'s state file ${attempt.file} (cut short by a kill during a write?), set aside as ${unreadable}; resuming from an older one: ${next.file}`,
      );
      continue;
    }
    try {
      // What was saved while the previous run ran is older than its exit dump, now loaded: gone
      // before the dump is renamed, so a crash between the two leaves the dump to load first.
      if (attempt.file === loading) {
        await rm(saved, { force: true });
        await rename(loading, loaded);
      }
      return await keepStateSaved(anvil, saved, files.onWarn ?? files.onNote);
    } catch (error) {
      await anvil.stop();
      throw error;
    }
  }
  throw new Error("unreachable: the last attempt returns or throws");
}

/** Whether `dir` holds a state a start resumes from. */
export async function keepsState(dir: string): Promise<boolean> {
  const found = await Promise.all(STATE_FILES.map((name) => fileExists(path.join(dir, name))));
  return found.includes(true);
}

const STATE_FILES = ["state.json", "state.loading.json", "state.loaded.json", "state.saved.json"];

/** Every state file of `dir` removed: the next start is a fresh one. */
export async function dropStates(dir: string): Promise<void> {
  await Promise.all(STATE_FILES.map((name) => rm(path.join(dir, name), { force: true })));
}
