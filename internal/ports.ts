import { readdir, readFile, readlink } from "node:fs/promises";
import net from "node:net";

/**
 * True when something already listens on `port` at `host`: binding it fails with EADDRINUSE.
 * Any other failure (an address this machine does not have, say) is left to the listener
 * itself to report.
 */
export function portInUse(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "EADDRINUSE"));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(false)));
  });
}

/**
 * Socket inodes listening on TCP `port` (any address), from a /proc/net/tcp table: each row is
 * `sl local_address rem_address st … inode`, the port in hex after the colon, state 0A LISTEN.
 */
export function listeningInodes(table: string, port: number): string[] {
  return table
    .split("\n")
    .slice(1)
    .map((row) => row.trim().split(/\s+/))
    .filter(
      (fields) =>
        fields[3] === "0A" && Number.parseInt(fields[1]?.split(":")[1] ?? "", 16) === port,
    )
    .flatMap((fields) => (fields[9] ? [fields[9]] : []));
}

/**
 * Whether process `pid` itself holds a listening socket on TCP `port` (Linux, from /proc), so
 * that a server answering on a port can be told to be the one we spawned, not another program
 * that had the port first. `undefined` where this cannot be told (no /proc).
 */
export async function holdsListeningPort(pid: number, port: number): Promise<boolean | undefined> {
  const tables = await Promise.all(
    ["/proc/net/tcp", "/proc/net/tcp6"].map((file) => readFile(file, "utf8").catch(() => null)),
  );
  if (tables.every((table) => table === null)) return undefined;
  const inodes = new Set(tables.flatMap((table) => (table ? listeningInodes(table, port) : [])));
  if (inodes.size === 0) return false;
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => null);
  if (fds === null) return false;
  for (const fd of fds) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode && inodes.has(inode)) return true;
  }
  return false;
}
