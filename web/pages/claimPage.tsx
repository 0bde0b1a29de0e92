import { CardPage } from "../layout.tsx";

/** The claim link's page: a button, and nothing else happens until it is pressed (mail scanners open links). */
export function ClaimPage() {
  return (
    <CardPage title="Claim your Remit merchant account" heading="Claim your merchant account">
      <p>
        Pressing the button verifies this email address as yours, creates an API key for it and
        signs you in to your dashboard. From then on, invoices and payment links in this email's
        name can only be made with one of its keys.
      </p>
      <p class="muted small">
        The key is shown once, on the next page. Have somewhere safe to keep it.
      </p>
      <form method="post">
        <button type="submit">Create my API key</button>
      </form>
    </CardPage>
  );
}

/** The key, shown this once (it is stored only as a hash). */
export function ClaimedPage(props: { apiKey: string; email: string }) {
  return (
    <CardPage title="Your Remit API key" heading="Your API key">
      <p>
        The account of <strong>{props.email}</strong> is yours. This is its API key: copy it now, it
        will not be shown again.
      </p>
      <div class="copyrow">
        <code id="api-key">{props.apiKey}</code>
        <button type="button" data-copy={props.apiKey}>
          Copy
        </button>
      </div>
      <p class="muted small">
        Send it as <code>Authorization: Bearer …</code> (the CLI reads <code>REMIT_API_KEY</code>
        ). Create more keys, read-only ones among them, with <code>POST /api/keys</code>, and
        register the wallets your <code>byo</code> invoices pay into with{" "}
        <code>POST /api/merchant/wallets</code>.
      </p>
      <p>
        You are signed in to your dashboard in this browser: invoices, links, payments and refunds
        without the API.
      </p>
      <p>
        <a class="button" href="/dashboard">
          Go to your dashboard
        </a>
      </p>
    </CardPage>
  );
}

/** An unknown, expired or used link: one answer for all three. */
export function ClaimRefusedPage() {
  return (
    <CardPage title="This link no longer works">
      <p class="muted">
        Claim links work once, for 30 minutes. Ask for a new one with{" "}
        <code>POST /api/merchants/claim</code>.
      </p>
    </CardPage>
  );
}
