import { type Context, Hono } from "hono";
import { getAddress } from "viem";
import { hostedInvoice, hostedLink, merchantPortal } from "../app/pages/hostedPages.ts";
import { currencyFacts } from "../app/payments/currencyFacts.ts";
import { askedUsdc } from "../app/payments/presentCurrency.ts";
import type { Db } from "../db/database.ts";
import type { Currency } from "../domain/currencies.ts";
import { publicPdfUrl, x402Url } from "../domain/invoiceUrls.ts";
import { invoiceAmountDue, receivedInOwnUnit } from "../domain/moneyRules.ts";
import { amountDue, type PaymentState } from "../domain/paymentState.ts";
import { usdcPaymentUri } from "../domain/paymentUri.ts";
import { faviconSvg, payCss, payJs } from "./assets.ts";
import { NotFoundPage } from "./layout.tsx";
import { CheckoutPage } from "./pages/checkoutPage.tsx";
import { InvoicePage } from "./pages/invoicePage.tsx";
import { MerchantPortal } from "./pages/merchantPortal.tsx";
import { VoidInvoicePage } from "./pages/voidInvoicePage.tsx";
import {
  checkPaidTransaction,
  type PageTransactionLookup,
  PaidButNotShowing,
} from "./paidButNotShowing.tsx";
import { qrSvg } from "./qrSvg.ts";
import { WALLET_SCRIPT, type WalletSettings } from "./walletPanel.tsx";
import { walletJs } from "./walletScript.ts";
import { widgetJs } from "./widget.ts";

/**
 * Pages allow only their own script, styles and requests. Only the checkout may be framed
 * (the iframe snippet and w.js embed it anywhere); every other page refuses to be.
 */
const csp = (frameable: boolean) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    // The "Paid but not showing?" box is a GET form to the page itself.
    "form-action 'self'",
    `frame-ancestors ${frameable ? "*" : "'none'"}`,
  ].join("; ");

function pageHeaders(c: Context, frameable: boolean): void {
  c.header("Content-Security-Policy", csp(frameable));
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "no-referrer");
  c.header("Cache-Control", "no-store");
  if (!frameable) c.header("X-Frame-Options", "DENY");
}

/**
 * Where software finds the x402 resource paying a page's invoice or link, while something is
 * due: RFC 8288's registered `payment` relation, also as `<link rel="payment">` in the page
 * (web/layout.tsx), so a fetcher that reads headers only and one that parses HTML both find it.
 */
function paymentLinkHeader(c: Context, url: string): void {
  c.header("Link", `<${url}>; rel="payment"; type="application/json"; title="x402"`);
}

/** The hosted pages and their assets. */
/** What the hosted pages need from their process. */
export type PageDeps = {
  db: Db;
  indexerSchema: string;
  /** Where the price feeds are read, for a page priced in a currency (its quote). */
  rpcUrl: string;
  /** Public origins used in every URL handed out. */
  baseUrl: string;
  payUrl: string;
  /** Block explorer for transaction links; none on a local chain. */
  explorerUrl: string | null;
  /** The relayer of gasless payments and its budget: with both, the wallet button signs. */
  relayerAddress?: string;
  gasless?: object;
  relayerBudget?: { daily: bigint };
  /** Transaction lookups for the "Paid but not showing?" box; none: the box is not shown. */
  paidCheck?: PageTransactionLookup;
};

/**
 * The QR code of an EIP-681 request for what is still due, or none once nothing is: a settled
 * page must not carry a payment request, even a hidden one.
 */
const payQr = (depositAddress: string, due: bigint) =>
  due > 0n ? qrSvg(usdcPaymentUri(getAddress(depositAddress), due)) : Promise.resolve(null);

/** The wallet button's and the `ethereum:` link's part of a payable page. */
const walletOptions = (deps: PageDeps, depositAddress: string, due: bigint) => ({
  paymentUri: usdcPaymentUri(getAddress(depositAddress), due),
  wallet: {
    gasless: Boolean(deps.relayerAddress && deps.gasless) && (deps.relayerBudget?.daily ?? 0n) > 0n,
    explorerUrl: deps.explorerUrl,
  } satisfies WalletSettings,
});

export function pageRoutes(deps: PageDeps): Hono {
  const app = new Hono();
  const asset = (body: string, type: string) => (c: Context) => {
    c.header("Content-Type", type);
    c.header("Cache-Control", "public, max-age=300");
    c.header("X-Content-Type-Options", "nosniff");
    // Loaded from merchants' pages on other origins.
    c.header("Cross-Origin-Resource-Policy", "cross-origin");
    return c.body(body);
  };
  app.get("/assets/pay.css", asset(payCss, "text/css; charset=utf-8"));
  app.get("/assets/pay.js", asset(payJs, "text/javascript; charset=utf-8"));
  app.get("/w.js", asset(widgetJs, "text/javascript; charset=utf-8"));
  // An SVG under both names: browsers that ask for /favicon.ico by habit take it as well.
  app.get("/favicon.svg", asset(faviconSvg, "image/svg+xml"));
  app.get("/favicon.ico", asset(faviconSvg, "image/svg+xml"));
  app.get(WALLET_SCRIPT, async (c) => asset(await walletJs(), "text/javascript; charset=utf-8")(c));

  /**
   * The "Paid but not showing?" box of a payable page: what the transaction hash pasted in it
   * (`?tx=`) did, its form sent back to the page itself; none where the service looks up no
   * transactions.
   */
  const paidCheckBox = async (
    c: Context,
    owner: "invoice" | "link",
    target: { slug: string; deposit_address: string },
    page: string,
  ) => {
    const check = await checkPaidTransaction(c, deps.paidCheck, target.slug);
    return deps.paidCheck ? (
      <PaidButNotShowing
        check={check}
        owner={owner}
        action={page}
        depositAddress={getAddress(target.deposit_address)}
      />
    ) : null;
  };

  /**
   * What a payable page shows besides its invoice or link, for what is `due`: the "Paid but not
   * showing?" box, the QR code, the x402 resource (also the `Link` header while something is
   * due) and the wallet button's options.
   */
  const payableParts = async (
    c: Context,
    owner: "invoice" | "link",
    target: { slug: string; deposit_address: string },
    page: string,
    due: bigint,
  ) => {
    const paidCheck = await paidCheckBox(c, owner, target, page);
    const qr = await payQr(target.deposit_address, due);
    // x402 and the wallet button's gasless signature ask for the same quote as the page
    // (findPayable): `due` is the quote's USDC on a page priced in a currency.
    const x402 = x402Url(deps, target.slug);
    if (x402 && due > 0n) paymentLinkHeader(c, x402);
    return {
      paidCheck,
      qrSvg: qr,
      x402Url: x402,
      pay: walletOptions(deps, target.deposit_address, due),
    };
  };

  /**
   * What a payable page asks for `due` (in its owner's unit): itself in USDC; priced in a
   * currency, the quote's USDC (none while no rate can be read), with the currency's facts.
   */
  const askFor = async (
    owner: { deposit_address: string; currency: Currency },
    state: PaymentState,
    due: bigint,
  ) => {
    const currency = await currencyFacts(
      deps,
      { depositAddress: owner.deposit_address, currency: owner.currency },
      state,
      [],
      due,
    );
    const asked = askedUsdc(currency, due);
    return { currency, asked };
  };

  app.get("/i/:slug", async (c) => {
    pageHeaders(c, false);
    const hosted = await hostedInvoice(deps.db, c.req.param("slug"));
    if (!hosted) return c.html(<NotFoundPage what="invoice" />, 404);
    const { invoice, lines, state, refunded } = hosted;
    // Void: no way to pay (no address, QR code or wallet button), no polling.
    if (!state)
      return c.html(<VoidInvoicePage invoice={invoice} lines={lines} refunded={refunded} />);
    const due = invoiceAmountDue(
      invoice.status,
      invoice.total_amount,
      receivedInOwnUnit(invoice.currency, state),
      invoice.credited_amount,
    );
    const { currency, asked } = await askFor(invoice, state, due);
    const parts = await payableParts(c, "invoice", invoice, `/i/${invoice.slug}`, asked);
    // By slug: the page never prints the invoice's id, which would open the merchant's API.
    const pdfUrl = publicPdfUrl(deps, invoice.slug);
    return c.html(
      <InvoicePage
        invoice={invoice}
        lines={lines}
        state={state}
        refunded={refunded}
        pdfUrl={pdfUrl}
        currency={currency}
        {...parts}
      />,
    );
  });

  app.get("/pay/:slug", async (c) => {
    pageHeaders(c, true);
    const hosted = await hostedLink(deps.db, c.req.param("slug"));
    if (!hosted) return c.html(<NotFoundPage what="payment link" />, 404);
    const { link, state, refunded } = hosted;
    const due = amountDue(link.amount, receivedInOwnUnit(link.currency, state));
    const { currency, asked } = await askFor(link, state, due);
    const { pay, ...parts } = await payableParts(c, "link", link, `/pay/${link.slug}`, asked);
    // w.js on a desktop says so: no phone's wallet app to open there (web/widget.ts).
    const desktop = c.req.query("device") === "desktop";
    return c.html(
      <CheckoutPage
        link={link}
        state={state}
        refunded={refunded}
        currency={currency}
        {...parts}
        pay={desktop ? { wallet: pay.wallet } : pay}
      />,
    );
  });

  app.get("/merchant/:slug", async (c) => {
    pageHeaders(c, false);
    // The portal exists for links paid into a managed wallet (spec §4.8). Anyone with the slug
    // (every shop page embeds it) sees this page: only what the checkout already reveals, never
    // the managed wallet or the sweeps into it (docs/api.md).
    const portal = await merchantPortal(deps, c.req.param("slug"));
    if (!portal) return c.html(<NotFoundPage what="merchant portal" />, 404);
    const { link, state, transfers } = portal;
    return c.html(
      <MerchantPortal
        link={link}
        state={state}
        transfers={transfers}
        explorerUrl={deps.explorerUrl}
      />,
    );
  });
  return app;
}
