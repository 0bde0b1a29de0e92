import type { AppDeps } from "../../api/deps.ts";
import { createApp } from "../../server/app.ts";

/**
 * The real app, wired only far enough to serve its OpenAPI document and /docs: both are
 * generated from the route schemas alone, so no database or chain is touched.
 */
export function documentApp() {
  return createApp({
    baseUrl: "http://localhost:3000",
    payUrl: "http://localhost:3000",
    outboxDir: null,
    allowPrivateWebhooks: true,
    log: { error: () => {}, debug: () => {} },
  } as unknown as AppDeps);
}
