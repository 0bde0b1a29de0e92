import { mkdir } from "node:fs/promises";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { projectRoot } from "../../internal/projectRoot.ts";

/** Where browser tests leave their screenshots (test-artifacts/, not committed). */
export const artifactsDir = path.join(projectRoot, "test-artifacts");

/**
 * Debian's Chromium (`apt-get install chromium`; .ci/run installs it), headless, driven by
 * playwright-core. The flags keep it off the network: this machine has none.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, `${name}.png`);
  // A long page's full screenshot took over 30 s (Playwright's default) on a slow, loaded
  // machine: a bound for that machine, not a figure (pages' speed is not measured here).
  await page.screenshot({ path: file, fullPage: true, timeout: 120_000 });
  return file;
}
