import type { Socket } from "node:net";

/** How long a refused upload may go on being read (and dropped) after the answer is sent. */
const LINGER_MS = 2_000;

/**
 * Closes a connection the way a refused upload needs (Apache's and nginx's "lingering close").
 * After a 413 the client is usually still sending its body; closing a socket with unread data
 * makes the kernel send a reset, and a reset can make the client's kernel drop the 413 it had
 * received but not yet read, so the client sees a bare "connection reset". Instead: send our
 * FIN after the answer, read and drop what still arrives, and destroy the socket when the
 * client closes its side or after LINGER_MS, whichever comes first.
 */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function destroySoonLingering(this: Socket) {
    this.end();
    this.resume();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once("end", () => this.destroy());
    this.once("close", () => clearTimeout(timer));
  };
}
