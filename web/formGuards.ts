import type { Context } from "hono";

/**
 * Headers of a page with forms that act (the claim page, the dashboard): only our own scripts
 * and styles, forms post only to ourselves, nothing may frame it (a framed button is a
 * clickjack), nothing is cached or leaks in a Referer.
 */
export function formPageHeaders(c: Context): void {
  c.header(
    "Content-Security-Policy",
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  );
  c.header("X-Frame-Options", "DENY");
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "no-referrer");
  c.header("Cache-Control", "no-store");
}

/**
 * A form post from another site (CSRF): browsers name the page that submitted a form in
 * `Sec-Fetch-Site` (only `same-origin`, or `none` for a user's own navigation, may act) and,
 * where they send no `Sec-Fetch-Site` (plain http outside localhost, older browsers), in
 * `Origin`, which must then be PAY_URL's. Sec-Fetch-Site is trusted first: a page cannot set
 * it, and it holds however the service is reached (127.0.0.1 or localhost, a proxy's name). A
 * client sending neither header (curl) is not a browser being tricked.
 */
export function isCrossSite(c: Context, payUrl: string): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined) return site !== "same-origin" && site !== "none";
  const origin = c.req.header("origin");
  return origin !== undefined && origin !== new URL(payUrl).origin;
}
