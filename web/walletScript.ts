import path from "node:path";
import { projectRoot } from "../internal/projectRoot.ts";

/** The wallet button's code (web/browser/wallet.ts), a TypeScript module like the rest. */
const ENTRY = path.join(projectRoot, "web", "browser", "wallet.ts");

let bundled: Promise<string> | undefined;

/**
 * `/assets/wallet.js`: web/browser/wallet.ts and what it imports (USDC's ABI, the chain
 * constants, the EIP-712 domain: the server's own) bundled into one self-contained script, as
 * the pages' CSP requires (`script-src 'self'`, nothing inline or third-party).
 *
 * Bundled once, at the first request for it, then kept in memory: some 50 ms once (esbuild's
 * child process starting included; docs/benchmarks.md) that start-up does not pay. esbuild is
 * there at run time anyway, as tsx runs the service with it. A failed bundle is not kept, so
 * the next request tries again.
 */
export function walletJs(): Promise<string> {
  bundled ??= bundle().catch((error: unknown) => {
    bundled = undefined;
    throw error;
  });
  return bundled;
}

async function bundle(): Promise<string> {
  // Loaded here, not at start-up: only this first request needs it.
  const { build, stop } = await import("esbuild");
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    // BigInt literals: the oldest syntax the wallet button needs.
    target: "es2020",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  }).finally(() =>
    // Built once: esbuild's child process (some 13 MB) need not idle beside the service.
    stop(),
  );
  const [file] = result.outputFiles;
  if (!file) throw new Error(`esbuild produced no output for ${ENTRY}`);
  return file.text;
}
