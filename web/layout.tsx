import type { Child } from "hono/jsx";

/**
 * The head of every page we serve, hosted or dashboard: no Referer leaves it, and its one
 * stylesheet is our own (the CSPs allow no inline style); `children` come after it.
 */
export function DocumentHead(props: { title: string; stylesheet: string; children?: Child }) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="referrer" content="no-referrer" />
      <title>{props.title}</title>
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      <link rel="stylesheet" href={props.stylesheet} />
      {props.children}
    </head>
  );
}

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
      <DocumentHead title={props.title} stylesheet="/assets/pay.css">
        {props.x402Url ? (
          <link rel="payment" href={props.x402Url} type="application/json" title="x402" />
        ) : null}
      </DocumentHead>
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

/**
 * A hosted page of one card under its heading (the page's title unless `heading` says
 * otherwise): an answer, a button, a refusal.
 */
export function CardPage(props: { title: string; heading?: string; children: Child }) {
  return (
    <Layout title={props.title}>
      <section class="card">
        <h1>{props.heading ?? props.title}</h1>
        {props.children}
      </section>
    </Layout>
  );
}

export function NotFoundPage(props: { what: string }) {
  return (
    <CardPage title="Not found">
      <p class="muted">There is no {props.what} at this address. Check the link you were given.</p>
    </CardPage>
  );
}
