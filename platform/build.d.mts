// Types of platform/build.mjs (plain JavaScript: it runs before anything compiles TypeScript).
export const ENTRY_POINTS: string[];
export function buildCacheDir(env?: NodeJS.ProcessEnv): string;
export function buildKey(): Promise<string>;
export function bundle(outdir: string): Promise<void>;
export function ensureBuilt(
  env?: NodeJS.ProcessEnv,
): Promise<{ dir: string; built: boolean; ms: number }>;
export const BUNDLED_PACKAGES: Set<string>;
export function prepareCache(cache: string): Promise<void>;
export function keepingFileUrls(
  onRead?: (file: string, mtimeMs: number, contents: Buffer) => void,
): unknown;
export function bundlePackages(names: Set<string>): unknown;
