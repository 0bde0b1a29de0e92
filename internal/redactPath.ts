/**
 * A request path as logs may hold it: the secret of a claim link (`/claim/{token}`) replaced, so
 * a debug log or an error line never carries a usable link.
 *
 * @example redactPath("/claim/7Hq…") // "/claim/[redacted]"
 */
export const redactPath = (path: string): string =>
  path.replace(/^\/claim\/[^/]+/, "/claim/[redacted]");
