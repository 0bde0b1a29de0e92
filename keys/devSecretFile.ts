import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { EnvError } from "../internal/env.ts";
import type { Logger } from "../internal/logger.ts";

/** Where a secret comes from: the configured value, or on the local chain a file in `dataDir`. */
export type SecretSource = {
  /** The operator's setting (DEPOSIT_MNEMONIC, WEBHOOK_SECRET_KEY), if any. */
  configured: string | undefined;
  /** The local simulated chain: the only mode where a development secret may be generated. */
  localChain: boolean;
  dataDir: string;
};

/**
 * A development secret kept in `<dataDir>/<name>` (mode 0600): read when it exists (and
 * refused when `isValid` says it is not one), otherwise made by `create`, written, and
 * announced with `warning`, once. For the local simulated chain only, where no real funds exist.
 */
export async function devSecretFile(
  dataDir: string,
  name: string,
  options: {
    create: () => string;
    isValid: (text: string) => boolean;
    /** What the file must hold, for the error when it does not. */
    what: string;
    warning: (file: string) => string;
    log: Logger;
  },
): Promise<string> {
  const file = path.join(dataDir, name);
  const existing = await readFile(file, "utf8").catch(() => null);
  if (existing !== null) {
    if (!options.isValid(existing)) throw new EnvError(`${file} does not hold ${options.what}`);
    return existing.trim();
  }
  const secret = options.create();
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  options.log.warn(options.warning(file));
  return secret;
}
