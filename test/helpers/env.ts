/**
 * Test processes all talk from 127.0.0.1, far faster than any one client may: the limiter
 * stays in the path but never refuses, except where a test sets budgets of its own.
 */
const generousRateLimits = {
  RATE_LIMIT_STATUS_PER_MIN: "1000000",
  RATE_LIMIT_INVOICES_PER_MIN: "1000000",
  RATE_LIMIT_LINKS_PER_MIN: "1000000",
  RATE_LIMIT_KEY_PER_MIN: "1000000",
  RATE_LIMIT_REDELIVERIES_PER_MIN: "1000000",
  RATE_LIMIT_CLAIMS_PER_MIN: "1000000",
  EMAILS_TO_OTHERS_PER_HOUR: "1000000",
  EMAILS_TO_OTHERS_PER_DAY: "1000000",
};

/**
 * The suite runs several stacks on the same cores at once: a worker's niced renders would wait
 * behind other test files' work, not behind their own stack's requests (what the nice value is
 * for, measured by bench/invoiceCreation.ts). The value itself is tested in internal/env.test.ts
 * and pdf/renderPool.test.ts; a test may set its own.
 */
const backgroundAtFullPriority = { WORKER_RENDER_NICE: "0" };

/**
 * The environment for a process a test starts: ours, minus what Vite puts into
 * process.env (it sets BASE_URL to "/", which is not a URL Remit accepts).
 */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const {
    BASE_URL: _base,
    PAY_URL: _pay,
    MODE: _mode,
    DEV: _dev,
    PROD: _prod,
    SSR: _ssr,
    ...rest
  } = process.env;
  return {
    ...rest,
    NODE_ENV: "test",
    ...generousRateLimits,
    ...backgroundAtFullPriority,
    ...extra,
  };
}
