// Types of platform/build.mjs (plain JavaScript: it runs before anything compiles TypeScript).
export const ENTRY_POINTS: string[];
export function buildCacheDir(env?: NodeJS.ProcessEnv): string;
export function buildKey(): Promise<string>;
export function bundle(outdir: string): Promise<void>;
export function ensureBuilt(
  env?: NodeJS.ProcessEnv,
): Promise<{ dir: string; built: boolean; ms: number }>;
