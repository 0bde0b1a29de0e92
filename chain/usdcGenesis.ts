import { mkdir, rename, stat } from "node:fs/promises";
import path from "node:path";
import { freePort } from "../internal/freePort.ts";
import { startAnvil } from "./anvil.ts";
import { deployUsdc } from "./deployUsdc.ts";
import { installLocalFeeds } from "./localFeeds.ts";

/**
 * Makes sure `file` holds an anvil state in which USDC is deployed, the dev accounts are
 * funded and Chainlink-compatible price feeds stand at Base's feed addresses, building it once
 * (under a second) on a throwaway automining anvil. Starting from the dump afterwards is instant.
 */
export async function ensureUsdcGenesis(file: string): Promise<string> {
  if (
    await stat(file).then(
      () => true,
      () => false,
    )
  )
    return file;
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  const anvil = await startAnvil({ port: await freePort(), blockTime: 0, dumpState: partial });
  try {
    await deployUsdc(anvil.url);
    await installLocalFeeds(anvil.url);
  } finally {
    await anvil.stop();
  }
  // Renamed into place so a concurrent builder never loads a half-written file.
  await rename(partial, file);
  return file;
}
