// Comparing two ways of answering the same requests in one process, fairly on a shared, noisy
// machine: the two are run in alternating batches (baseline, candidate, candidate, baseline, …),
// so a burst of load from elsewhere falls on both, and the verdict is the median over rounds
// of the per-round difference, which a few disturbed rounds cannot move.

/** What is compared: anything that answers a Request the way app.fetch does. */
export type Fetch = (request: Request) => Response | Promise<Response>;

export type Comparison = {
  /** CPU microseconds per request: medians over rounds. */
  baselineUs: number;
  candidateUs: number;
  /** Median over rounds of (candidate − baseline), µs per request. */
  extraUs: number;
  /** Median over rounds of baseline ÷ candidate: the candidate's rate as a share of the baseline's. */
  ratio: number;
};

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/**
 * The verdict of paired rounds: `baseline[i]` and `candidate[i]` were measured side by side.
 *
 * @example
 * pairedVerdict([10, 11, 30], [12, 13, 31]) // { baselineUs: 11, candidateUs: 13, extraUs: 2, ratio: 10/12 }
 */
export function pairedVerdict(
  baseline: readonly number[],
  candidate: readonly number[],
): Comparison {
  if (baseline.length !== candidate.length) throw new RangeError("rounds must be paired");
  return {
    baselineUs: median(baseline),
    candidateUs: median(candidate),
    extraUs: median(baseline.map((b, i) => (candidate[i] as number) - b)),
    ratio: median(baseline.map((b, i) => b / (candidate[i] as number))),
  };
}

/**
 * CPU µs per request for `count` requests, cycling through `requests`. CPU time of this
 * process (all its threads, the garbage collector's included), not wall time: on a machine
 * shared with other work, wall time mostly measures the scheduler. The body is left unread, as
 * @hono/node-server writes a string body without making it a stream.
 */
async function batch(fetch: Fetch, requests: readonly Request[], count: number): Promise<number> {
  let answered = 0;
  const started = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const response = await fetch(requests[i % requests.length] as Request);
    if (response.status < 500) answered++;
  }
  const used = process.cpuUsage(started);
  if (answered !== count) throw new Error(`${count - answered} of ${count} requests failed`);
  return (used.user + used.system) / count;
}

/**
 * Runs `baseline` and `candidate` in `rounds` alternating batches of `batchSize` requests each,
 * after `warmup` unmeasured batches of each (the JIT, the caches), and compares them.
 */
export async function compareInterleaved(
  baseline: Fetch,
  candidate: Fetch,
  requests: readonly Request[],
  { rounds = 15, batchSize = 2_000, warmup = 2 } = {},
): Promise<Comparison> {
  for (let i = 0; i < warmup; i++) {
    await batch(baseline, requests, batchSize);
    await batch(candidate, requests, batchSize);
  }
  const base: number[] = [];
  const cand: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // ABBA: neither is always first after a pause, a GC, or the other's garbage.
    if (round % 2 === 0) {
      base.push(await batch(baseline, requests, batchSize));
      cand.push(await batch(candidate, requests, batchSize));
    } else {
      cand.push(await batch(candidate, requests, batchSize));
      base.push(await batch(baseline, requests, batchSize));
    }
  }
  return pairedVerdict(base, cand);
}
