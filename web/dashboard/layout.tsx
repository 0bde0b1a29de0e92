import type { Child } from "hono/jsx";
import { DASHBOARD_POLICY, policyOf, type Role, roleAllows } from "../../domain/accessPolicy.ts";
import { DocumentHead } from "../layout.tsx";
import { DASHBOARD_CSS, DASHBOARD_JS } from "./assets.ts";
import { CSRF_FIELD } from "./session.ts";

/** The sections of the dashboard's navigation: path and label. */
const SECTIONS = [
  ["/dashboard", "Overview"],
  ["/dashboard/invoices", "Invoices"],
  ["/dashboard/invoices/new", "New invoice"],
  ["/dashboard/links", "Links"],
  ["/dashboard/payments", "Payments"],
  ["/dashboard/webhooks", "Webhooks"],
  ["/dashboard/events", "Events"],
  ["/dashboard/schedules", "Schedules"],
  ["/dashboard/receivables", "Receivables"],
  ["/dashboard/keys", "API keys"],
  ["/dashboard/members", "Team"],
  ["/dashboard/audit", "Audit log"],
  ["/dashboard/settings", "Settings"],
] as const;

export type Section = (typeof SECTIONS)[number][0];

/** The sections `role` may open (their page's row of DASHBOARD_POLICY): the others are not shown. */
const sectionsOf = (role: Role) =>
  SECTIONS.filter(([href]) => {
    const policy = policyOf(DASHBOARD_POLICY, "GET", href);
    return policy !== undefined && roleAllows(role, policy.permission);
  });

/** The hidden field of every signed-in form. */
export const Csrf = (props: { token: string }) => (
  <input type="hidden" name={CSRF_FIELD} value={props.token} />
);

/** A page's outline: no inline script or style (the CSP allows only /assets). */
function Document(props: { title: string; children: Child }) {
  return (
    <html lang="en">
      <DocumentHead title={`${props.title} · Remit dashboard`} stylesheet={DASHBOARD_CSS} />
      <body>
        {props.children}
        <script src={DASHBOARD_JS} defer />
      </body>
    </html>
  );
}

/** A signed-in page: skip link, navigation, who is signed in and sign-out, then the page. */
export function DashboardLayout(props: {
  title: string;
  section: Section;
  email: string;
  csrf: string;
  role: Role;
  children: Child;
}) {
  return (
    <Document title={props.title}>
      <a class="skip" href="#content">
        Skip to content
      </a>
      <header class="top">
        <div class="topbar">
          <a class="brand" href="/dashboard">
            Remit
          </a>
          <nav class="main" aria-label="Dashboard">
            <ul>
              {sectionsOf(props.role).map(([href, label]) => (
                <li>
                  <a href={href} aria-current={href === props.section ? "page" : undefined}>
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div class="who">
            <span title={props.email}>{props.email}</span>
            <form method="post" action="/dashboard/sign-out" class="inline">
              <Csrf token={props.csrf} />
              <button type="submit">Sign out</button>
            </form>
          </div>
        </div>
      </header>
      <main id="content" tabindex={-1}>
        <h1>{props.title}</h1>
        {props.children}
      </main>
    </Document>
  );
}

/** A page outside a session (sign-in, its link, refusals). */
export function PlainLayout(props: { title: string; children: Child }) {
  return (
    <Document title={props.title}>
      <main id="content" class="signin">
        <h1>{props.title}</h1>
        {props.children}
      </main>
      <footer class="foot">Remit · USDC on Base</footer>
    </Document>
  );
}

/** A status as a badge (CSS colours it by `data-status`; `label` when the text differs). */
export const Badge = (props: { status: string; label?: string }) => (
  <span class="badge" data-status={props.status}>
    {props.label ?? props.status}
  </span>
);

/** A time in UTC, machine-readable too. */
export const Time = (props: { at: Date | null }) =>
  props.at ? (
    <time datetime={props.at.toISOString()}>
      {`${props.at.toISOString().replace("T", " ").slice(0, 16)} UTC`}
    </time>
  ) : (
    <span class="muted">—</span>
  );

/** A message at the top of a page. */
export const Alert = (props: { tone: "ok" | "bad"; children: Child }) => (
  <div class={`alert ${props.tone}`} role={props.tone === "bad" ? "alert" : "status"}>
    {props.children}
  </div>
);
