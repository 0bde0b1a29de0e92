import type { Identity } from "../app/actor.ts";

/**
 * What Hono's context carries for every request of the app: its id, set by the first middleware
 * (api/middleware/requestContext.ts) and read by the error responses and the logs; and, on
 * /api routes, who is calling (api/auth/authenticate.ts).
 */
export type AppEnv = { Variables: { requestId: string; identity?: Identity } };

// Who is calling is the application's type (app/actor.ts).
export type { Identity } from "../app/actor.ts";
