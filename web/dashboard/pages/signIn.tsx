import type { Child } from "hono/jsx";
import { PlainLayout } from "../layout.tsx";

/** The email form. Nothing on it or after it tells whether the address has an account. */
export function SignInPage(props: { notice?: "signed_out" | "expired"; signupOpen?: boolean }) {
  return (
    <PlainLayout title="Sign in to your dashboard">
      {props.notice === "signed_out" && (
        <p class="alert ok" role="status">
          You are signed out.
        </p>
      )}
      <section class="card">
        <form method="post" action="/dashboard/sign-in">
          <div class="field">
            <label for="email">Your merchant account's email</label>
            <input id="email" name="email" type="email" autocomplete="email" required />
            <p class="hint">We email you a sign-in link, valid once for 30 minutes.</p>
          </div>
          <button type="submit" class="primary">
            Email me a sign-in link
          </button>
        </form>
      </section>
      {props.signupOpen ? (
        <section class="card" aria-labelledby="claim">
          <h2 id="claim">No account yet?</h2>
          <p class="small">
            The email your invoices and links name (<code>merchant_email</code>) has an account only
            once it is claimed: a sign-in link goes to claimed emails only. Claim yours: we email a
            link that makes it yours and shows your API key; then sign in here.
          </p>
          <form method="post" action="/dashboard/claim">
            <div class="field">
              <label for="claim-email">Merchant email to claim</label>
              <input id="claim-email" name="email" type="email" autocomplete="email" required />
            </div>
            <button type="submit">Email me a claim link</button>
          </form>
        </section>
      ) : (
        <p class="muted small">
          No account yet? Claim your merchant email with <code>POST /api/merchants/claim</code>{" "}
          (where this service lets new merchants claim; ask its operator).
        </p>
      )}
    </PlainLayout>
  );
}

/** A page of one card outside the dashboard's pages: an answer, a button, a refusal. */
const CardPage = (props: { title: string; children: Child }) => (
  <PlainLayout title={props.title}>
    <section class="card">{props.children}</section>
  </PlainLayout>
);

/** The one answer to every sign-in request. */
export function SignInSentPage() {
  return (
    <CardPage title="Check your email">
      <p role="status">
        If this email has a Remit merchant account, a sign-in link valid for 30 minutes is on its
        way to it.
      </p>
      <p class="muted small">
        Nothing arrived? Check spam, or <a href="/dashboard/sign-in">ask again</a>.
      </p>
    </CardPage>
  );
}

/** The one answer to every claim request from the sign-in page. */
export function ClaimSentPage() {
  return (
    <CardPage title="Check your email">
      <p role="status">
        If this email may claim a Remit merchant account, a claim link valid for 30 minutes is on
        its way to it. Open it and press its button: your API key is shown, with a link back to sign
        in here.
      </p>
      <p class="muted small">
        Already claimed? <a href="/dashboard/sign-in">Sign in</a> with the same email.
      </p>
    </CardPage>
  );
}

/** The link's page: a button; nothing happens until it is pressed (mail scanners open links). */
export function SignInConfirmPage() {
  return (
    <CardPage title="Sign in to your dashboard">
      <p>Press the button to sign in in this browser.</p>
      <form method="post">
        <button type="submit" class="primary">
          Sign in
        </button>
      </form>
    </CardPage>
  );
}

/** An invitation link to a merchant's team: asks before joining (docs/members.md). */
export function InvitationConfirmPage() {
  return (
    <CardPage title="Join the team">
      <p>Press the button to join the team and sign in to its dashboard in this browser.</p>
      <form method="post">
        <button type="submit" class="primary">
          Join and sign in
        </button>
      </form>
    </CardPage>
  );
}

/** An unknown, expired, used or withdrawn invitation: one answer for all. */
export function InvitationRefusedPage() {
  return (
    <CardPage title="This invitation no longer works">
      <p>
        Invitations work once, for 72 hours, until withdrawn. Ask the team's owner or an admin for a
        new one.
      </p>
    </CardPage>
  );
}

/** An unknown, expired or used link: one answer for all three. */
export function SignInRefusedPage() {
  return (
    <CardPage title="This link no longer works">
      <p>
        Sign-in links work once, for 30 minutes. <a href="/dashboard/sign-in">Ask for a new one</a>.
      </p>
    </CardPage>
  );
}

/** A form post refused: from another site, or without this session's token. */
export function ForbiddenPage() {
  return (
    <CardPage title="Request refused">
      <p>
        This form was not sent from your dashboard (or your session changed since the page was
        opened), so nothing was done. <a href="/dashboard">Back to the dashboard</a>.
      </p>
    </CardPage>
  );
}

/** A new notification email's link: a button; nothing changes until it is pressed. */
export function NotificationEmailConfirmPage() {
  return (
    <CardPage title="Confirm this address">
      <p>Press the button to receive a Remit merchant account's payment notices at this address.</p>
      <form method="post">
        <button type="submit" class="primary">
          Confirm this address
        </button>
      </form>
    </CardPage>
  );
}

export function NotificationEmailConfirmedPage(props: { address: string }) {
  return (
    <CardPage title="Address confirmed">
      <p role="status">
        Payment notices now go to <strong>{props.address}</strong>.
      </p>
    </CardPage>
  );
}

/** An unknown, expired, used or replaced link: one answer for all. */
export function NotificationEmailRefusedPage() {
  return (
    <CardPage title="This link no longer works">
      <p>
        A notification email's link works once, for 24 hours, and only until the address is changed
        again. Change it again in your dashboard's settings for a new one.
      </p>
    </CardPage>
  );
}
