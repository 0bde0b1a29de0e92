import type { DashboardSessionIdentity } from "../domain/dashboardSession.ts";
import type { ApiKeyScope } from "../domain/statuses.ts";

/**
 * What Hono's context carries for every request of the app: its id, set by the first middleware
 * (api/middleware/requestContext.ts) and read by the error responses and the logs; and, on
 * /api routes, who is calling (api/auth/authenticate.ts).
 */
export type AppEnv = { Variables: { requestId: string; identity?: Identity } };

/**
 * Who is calling: a merchant through one of its API keys, a merchant signed in to the dashboard
 * (web/dashboard/*: never on /api, which takes no cookies), or nobody in particular.
 */
export type Identity =
  | {
      kind: "key";
      keyId: string;
      scope: ApiKeyScope;
      merchantId: string;
      /** Lower-case, as stored. */
      merchantEmail: string;
    }
  | DashboardSessionIdentity
  | { kind: "anonymous" };
