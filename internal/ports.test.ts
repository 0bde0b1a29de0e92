import { spawn } from "node:child_process";
import net from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { freePort } from "./freePort.ts";
import { holdsListeningPort, listeningInodes, portInUse } from "./ports.ts";
import { stopProcess, waitFor } from "./process.ts";

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

const listen = (port: number, host: string) =>
  new Promise<net.Server>((resolve) => {
    const server = net.createServer();
    servers.push(server);
    server.listen(port, host, () => resolve(server));
  });

describe("portInUse", () => {
  test("is true while something listens there, on that address or on every address", async () => {
    const port = await freePort();
    expect(await portInUse(port, "127.0.0.1")).toBe(false);
    await listen(port, "127.0.0.1");
    expect(await portInUse(port, "127.0.0.1")).toBe(true);

    const everywhere = await freePort();
    await listen(everywhere, "0.0.0.0");
    expect(await portInUse(everywhere, "127.0.0.1")).toBe(true);
  });

  test("leaves the port free after asking", async () => {
    const port = await freePort();
    expect(await portInUse(port, "127.0.0.1")).toBe(false);
    await listen(port, "127.0.0.1");
  });
});

describe("listeningInodes", () => {
  // Two rows of /proc/net/tcp: 127.0.0.1:8545 listening (0A), and a connection from it (01).
  const table = [
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
    "   0: 0100007F:2161 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 424242 1 0000000000000000 100 0 0 10 0",
    "   1: 0100007F:2161 0100007F:D3B2 01 00000000:00000000 00:00000000 00000000  1000        0 434343 1 0000000000000000 20 4 30 10 -1",
  ].join("\n");

  test("lists the listening sockets of that port alone", () => {
    expect(listeningInodes(table, 8545)).toEqual(["424242"]);
    expect(listeningInodes(table, 8546)).toEqual([]);
  });
});

describe("holdsListeningPort", () => {
  test("tells the process listening on a port from another one", async () => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      ["-e", `require("node:net").createServer().listen(${port}, "127.0.0.1")`],
      { stdio: "ignore" },
    );
    try {
      await waitFor("the child to listen", () => portInUse(port, "127.0.0.1"));
      expect(await holdsListeningPort(child.pid as number, port)).toBe(true);
      // This process does not hold it, and the child holds no other port.
      expect(await holdsListeningPort(process.pid, port)).toBe(false);
      expect(await holdsListeningPort(child.pid as number, await freePort())).toBe(false);
    } finally {
      await stopProcess(child);
    }
  });
});
