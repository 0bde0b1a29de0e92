/**
 * What Hono's context carries for every request of the app: its id, set by the first middleware
 * (api/middleware/requestContext.ts) and read by the error responses and the logs.
 */
export type AppEnv = { Variables: { requestId: string } };
