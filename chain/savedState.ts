import { open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import type { Anvil } from "./anvil.ts";
import { rpcRequest } from "./rpc.ts";

const gunzipAsync = promisify(gunzip);

/** How often a running chain's state is saved when it moved (anvil's own interval was 2 s). */
const STATE_SAVE_MS = 2_000;

/** A save that takes longer than this is given up (a stopped anvil must not hold up a stop). */
const SAVE_TIMEOUT_MS = 15_000;

/**
 * Keeps `file` a whole copy of anvil's state while it runs: every STATE_SAVE_MS, when the head
 * block changed since the last save (or once at the start), the state anvil dumps over
 * JSON-RPC (`anvil_dumpState`, gzip) is written beside `file`, flushed and renamed over it.
 * Anvil's own `--state-interval` writes its file in place, so a kill -9 during a write left it
 * cut short and the start after it fell back to an older state, losing every payment since
 * (docs/development.md, "The local chain across restarts"); a rename is never half done.
 * Anvil still writes its own dump (`--dump-state`) when it exits on SIGINT: newer than this one.
 * The first tick saves whatever the head (the start's state, feeds included); after it, a
 * change without a new block (a balance set by a test) is saved with the next block.
 */
function keepStateSaved(anvil: Anvil, file: string, onWarn?: (line: string) => void): Anvil {
  let savedHead: string | undefined;
  let failing = false;
  let running: Promise<void> = Promise.resolve();

  const saveOnce = async (): Promise<void> => {
    const signal = AbortSignal.timeout(SAVE_TIMEOUT_MS);
    const head = await rpcRequest<{ hash: string }>(
      anvil.url,
      "eth_getBlockByNumber",
      ["latest", false],
      { signal },
    );
    if (head.hash === savedHead) return;
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
    savedHead = head.hash;
  };

  /** One save at a time: the stop waits for the one under way. */
  const save = (): Promise<void> => {
    running = running.then(() =>
      saveOnce().then(
        () => {
          failing = false;
        },
        (error: Error) => {
          // Once per run of failures: a chain killed under us fails every tick until the stop.
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

  return {
    ...anvil,
    stop: async () => {
      clearInterval(timer);
      await running;
      await anvil.stop();
    },
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
  if (await exists(state)) await rename(state, loading);
  const attempts: Array<{ file?: string; note: string }> = [];
  if (await exists(loading))
    attempts.push({ file: loading, note: `resuming ${label} from ${state}` });
  if (await exists(saved))
    attempts.push({
      file: saved,
      note: `resuming ${label} from ${saved}, its state saved while it last ran`,
    });
  if (await exists(loaded))
    attempts.push({
      file: loaded,
      note: `resuming ${label} from ${loaded}, the state its previous start loaded`,
    });
  if (!attempts.length) attempts.push(await files.fresh());
  for (const [index, attempt] of attempts.entries()) {
    files.onNote?.(attempt.note);
    try {
      const anvil = await files.start(attempt.file, state);
      // What was saved while the previous run ran is older than its exit dump, now loaded.
      if (attempt.file === loading)
        await Promise.all([rename(loading, loaded), rm(saved, { force: true })]);
      return keepStateSaved(anvil, saved, files.onWarn ?? files.onNote);
    } catch (error) {
      const next = attempts[index + 1];
      if (!next || !attempt.file || !STATE_REFUSED.test((error as Error).message)) throw error;
      const unreadable = path.join(dir, "state.unreadable.json");
      await rename(attempt.file, unreadable);
      (files.onWarn ?? files.onNote)?.(
        `anvil cannot load ${label}'s state file ${attempt.file} (cut short by a kill during a write?), set aside as ${unreadable}; resuming from an older one: ${next.file}`,
      );
    }
  }
  throw new Error("unreachable: the last attempt returns or throws");
}

/** Whether `dir` holds a state a start resumes from. */
export async function keepsState(dir: string): Promise<boolean> {
  const found = await Promise.all(STATE_FILES.map((name) => exists(path.join(dir, name))));
  return found.includes(true);
}

const STATE_FILES = ["state.json", "state.loading.json", "state.loaded.json", "state.saved.json"];

/** Every state file of `dir` removed: the next start is a fresh one. */
export async function dropStates(dir: string): Promise<void> {
  await Promise.all(STATE_FILES.map((name) => rm(path.join(dir, name), { force: true })));
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );
