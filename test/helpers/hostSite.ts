import http from "node:http";
import { freePort } from "../../internal/freePort.ts";

/** A page on another origin (its own port), as a merchant's shop would be, serving `html`. */
export async function startHostSite(html: string) {
  const port = await freePort();
  const server = http.createServer((_, response) =>
    response.writeHead(200, { "content-type": "text/html" }).end(html),
  );
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
