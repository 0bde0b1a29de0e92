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
  return { ...rest, NODE_ENV: "test", ...extra };
}
