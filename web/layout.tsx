import type { Child } from "hono/jsx";

/** The frame of every hosted page: no inline script or style (see the CSP in web/routes.tsx). */
export function Layout(props: {
  title: string;
  children: Child;
  /** More of our own scripts from /assets, after pay.js (the wallet button's, say). */
  scripts?: string[];
  /** The x402 resource paying this page's invoice or link: `<link rel="payment">` for software. */
  x402Url?: string;
}) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{props.title}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/pay.css" />
        {props.x402Url ? (
          <link rel="payment" href={props.x402Url} type="application/json" title="x402" />
        ) : null}
      </head>
      <body>
        <main>{props.children}</main>
        <footer>USDC on Base · powered by Remit</footer>
        <script src="/assets/pay.js" defer />
        {props.scripts?.map((src) => (
          <script src={src} defer />
        ))}
      </body>
    </html>
  );
}

export function NotFoundPage(props: { what: string }) {
  return (
    <Layout title="Not found">
      <section class="card">
        <h1>Not found</h1>
        <p class="muted">
          There is no {props.what} at this address. Check the link you were given.
        </p>
      </section>
    </Layout>
  );
}
