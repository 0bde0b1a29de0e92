// Types of cli/build.mjs (plain JavaScript: it runs before anything compiles TypeScript).
export function cliCacheDir(env?: NodeJS.ProcessEnv): string;
export function freshCliBundle(env?: NodeJS.ProcessEnv): string | undefined;
export function buildCli(env?: NodeJS.ProcessEnv): Promise<string>;
export function cliBundle(env?: NodeJS.ProcessEnv): Promise<string>;
