import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { parseEnv } from "../internal/env.ts";
import { freePort } from "../internal/freePort.ts";
import {
  describeTakenPorts,
  listeners,
  refuseDataDirInUse,
  refuseTakenPorts,
  sharedPorts,
} from "./startChecks.ts";

const settingsOf = (source: NodeJS.ProcessEnv) =>
  listeners(parseEnv(source)).map((listener) => listener.setting);

describe("listeners", () => {
  test("by default: Postgres, anvil, the API and its operational listener, the indexer and the worker's metrics", () => {
    expect(listeners(parseEnv({}))).toEqual([
      expect.objectContaining({ setting: "EMBEDDED_PG_PORT", port: 54320, host: "127.0.0.1" }),
      expect.objectContaining({ setting: "ANVIL_PORT", port: 8545, host: "127.0.0.1" }),
      expect.objectContaining({ setting: "PORT", port: 3000, host: "127.0.0.1" }),
      expect.objectContaining({ setting: "OPS_PORT", port: 9465, host: "127.0.0.1" }),
      expect.objectContaining({ setting: "INDEXER_PORT", port: 42069, host: "127.0.0.1" }),
      expect.objectContaining({ setting: "WORKER_METRICS_PORT", port: 9464, host: "127.0.0.1" }),
    ]);
  });

  test("only what this start runs", () => {
    expect(
      settingsOf({
        DATABASE_URL: "postgres://remit@db.internal/remit",
        BASE_RPC_URL: "https://base.example",
        START_BLOCK: "1",
        PROCESSES: "api,worker",
        WORKER_METRICS_PORT: "0",
        OPS_PORT: "0",
        HOST: "0.0.0.0",
      }),
    ).toEqual(["PORT"]);
    expect(settingsOf({ PROCESSES: "indexer", INDEXER_HOST: "0.0.0.0" })).toEqual([
      "EMBEDDED_PG_PORT",
      "ANVIL_PORT",
      "INDEXER_PORT",
    ]);
  });
});

describe("sharedPorts", () => {
  test("names two settings given one port", () => {
    expect(sharedPorts(listeners(parseEnv({ INDEXER_PORT: "3000" })))).toEqual([
      "INDEXER_PORT and PORT are both 3000: give each a port of its own",
    ]);
    expect(sharedPorts(listeners(parseEnv({})))).toEqual([]);
  });
});

describe("describeTakenPorts", () => {
  test("names the setting to change", () => {
    const [postgres] = listeners(parseEnv({}));
    expect(describeTakenPorts(postgres ? [postgres] : [])).toEqual([
      "port 54320 on 127.0.0.1 (EMBEDDED_PG_PORT, the embedded Postgres) is already in use, by another Remit or another program: stop it, or set EMBEDDED_PG_PORT to a free port",
    ]);
  });
});

describe("refuseTakenPorts", () => {
  test("refuses a start whose port is taken, naming its setting", async () => {
    const ports = {
      EMBEDDED_PG_PORT: String(await freePort()),
      ANVIL_PORT: String(await freePort()),
      PORT: String(await freePort()),
      INDEXER_PORT: String(await freePort()),
      WORKER_METRICS_PORT: String(await freePort()),
    };
    await expect(refuseTakenPorts(parseEnv(ports))).resolves.toBeUndefined();
    const squatter = net.createServer();
    await new Promise<void>((resolve) =>
      squatter.listen(Number(ports.ANVIL_PORT), "127.0.0.1", resolve),
    );
    try {
      await expect(refuseTakenPorts(parseEnv(ports))).rejects.toThrow(
        new RegExp(
          `^port ${ports.ANVIL_PORT} on 127.0.0.1 \\(ANVIL_PORT, .*set ANVIL_PORT to a free port$`,
        ),
      );
    } finally {
      await new Promise((done) => squatter.close(done));
    }
  });
});

describe("refuseDataDirInUse", () => {
  test("lets a new, or a crashed run's, DATA_DIR be used", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "remit-checks-"));
    try {
      await expect(refuseDataDirInUse(dataDir)).resolves.toBeUndefined();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
