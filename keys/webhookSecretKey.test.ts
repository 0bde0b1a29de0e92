import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { decodeKey } from "../domain/secretBox.ts";
import { type Env, parseEnv } from "../internal/env.ts";
import { isValidMnemonic } from "./hdWallet.ts";
import { resolveMnemonic } from "./seed.ts";
import { resolveWebhookSecretKey } from "./webhookSecretKey.ts";

const log = { warn: () => {} } as never;

/** A secret's source as `npm start` builds it from the settings. */
const source = (env: Env, configured?: string) => ({
  configured,
  localChain: env.localChain,
  dataDir: env.DATA_DIR,
});

describe("resolveWebhookSecretKey", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "remit-key-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("locally, generates a key once into DATA_DIR (mode 0600) and keeps using it", async () => {
    const env = parseEnv({ DATA_DIR: dir });
    const key = await resolveWebhookSecretKey(source(env, env.WEBHOOK_SECRET_KEY), log);
    expect(decodeKey(key)).toHaveLength(32);
    const file = path.join(dir, "webhook-secret-key.txt");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, "utf8")).trim()).toBe(key);
    expect(await resolveWebhookSecretKey(source(env, env.WEBHOOK_SECRET_KEY), log)).toBe(key);
  });

  test("against a real chain, refuses to start without WEBHOOK_SECRET_KEY", async () => {
    const env = parseEnv({ DATA_DIR: dir, BASE_RPC_URL: "https://base.example", START_BLOCK: "1" });
    await expect(resolveWebhookSecretKey(source(env, env.WEBHOOK_SECRET_KEY), log)).rejects.toThrow(
      /WEBHOOK_SECRET_KEY is required/,
    );
  });

  test("uses WEBHOOK_SECRET_KEY when set, and the environment refuses a key of the wrong size", async () => {
    const key = "ab".repeat(32);
    const env = parseEnv({
      DATA_DIR: dir,
      BASE_RPC_URL: "https://base.example",
      START_BLOCK: "1",
      WEBHOOK_SECRET_KEY: key,
    });
    expect(await resolveWebhookSecretKey(source(env, env.WEBHOOK_SECRET_KEY), log)).toBe(key);
    expect(() => parseEnv({ WEBHOOK_SECRET_KEY: "ab".repeat(16) })).toThrow(/WEBHOOK_SECRET_KEY/);
    expect(() => parseEnv({ WEBHOOK_SECRET_KEY_PREVIOUS: `${key},nope` })).toThrow(
      /WEBHOOK_SECRET_KEY_PREVIOUS/,
    );
    expect(() =>
      parseEnv({ HTTP_HEADERS_TIMEOUT_MS: "5000", HTTP_REQUEST_TIMEOUT_MS: "1000" }),
    ).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
  });
});

describe("resolveMnemonic (the same development-file rules)", () => {
  test("generates a seed once into DATA_DIR (0600), reuses it, refuses a corrupt file", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "remit-seed-"));
    try {
      const env = parseEnv({ DATA_DIR: dir });
      const seed = await resolveMnemonic(source(env, env.DEPOSIT_MNEMONIC), log);
      expect(isValidMnemonic(seed)).toBe(true);
      const file = path.join(dir, "deposit-mnemonic.txt");
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await resolveMnemonic(source(env, env.DEPOSIT_MNEMONIC), log)).toBe(seed);
      await writeFile(file, "not a mnemonic\n");
      await expect(resolveMnemonic(source(env, env.DEPOSIT_MNEMONIC), log)).rejects.toThrow(
        /does not hold a valid BIP-39/,
      );
      await expect(
        resolveMnemonic(
          source(
            parseEnv({ DATA_DIR: dir, BASE_RPC_URL: "https://base.example", START_BLOCK: "1" }),
          ),
          log,
        ),
      ).rejects.toThrow(/DEPOSIT_MNEMONIC is required/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
