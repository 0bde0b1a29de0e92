import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { outboxRoutes } from "../../api/dev/outbox.ts";

export type SendGridStandIn = {
  /** SENDGRID_API_URL for a service that must send through it. */
  apiUrl: string;
  stop: () => Promise<void>;
};

/**
 * SendGrid, as far as Remit uses it, on a loopback port of its own: the same capture the API
 * serves on a local chain (api/dev/outbox.ts), for services in mainnet mode, which require a
 * real email configuration and never serve the capture themselves. A stand-in for a service
 * outside this machine; messages land in `outboxDir` like the API's capture writes them.
 */
export function startSendGridStandIn(outboxDir: string): Promise<SendGridStandIn> {
  return new Promise((resolve) => {
    const server = serve(
      {
        fetch: outboxRoutes(outboxDir, { apiKey: STAND_IN_KEY }).fetch,
        port: 0,
        hostname: "127.0.0.1",
      },
      (info: AddressInfo) =>
        resolve({
          apiUrl: `http://127.0.0.1:${info.port}/dev/sendgrid`,
          stop: () =>
            new Promise<void>((done) => {
              server.close(() => done());
              (server as { closeAllConnections?: () => void }).closeAllConnections?.();
            }),
        }),
    );
  });
}

/** The one key the stand-in takes, as the local capture takes only its stack's. */
const STAND_IN_KEY = "SG.stand-in";

/** The email settings mainnet mode requires, aimed at `apiUrl` (a stand-in, never SendGrid). */
export const sendGridSettings = (apiUrl: string): NodeJS.ProcessEnv => ({
  SENDGRID_API_KEY: STAND_IN_KEY,
  SENDGRID_API_URL: apiUrl,
  EMAIL_FROM: "Remit Tests <billing@remit.test>",
});
