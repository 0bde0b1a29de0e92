import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { screenshot } from "../helpers/browser.ts";
import type { TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";

/** A sign-in link of the dashboard, as emailed. */
export const SIGN_IN_LINK = /https?:\/\/[^\s"<]+\/dashboard\/sign-in\/([1-9A-HJ-NP-Za-km-z]{43})/;

/** Waits for the `count`-th sign-in email to `email` and answers its link. */
export async function waitForSignInLink(
  stack: TestStack,
  email: string,
  count = 1,
): Promise<string> {
  const texts = await waitFor(
    `${count} sign-in email(s) to ${email}`,
    async () => {
      const found = (await stack.outbox())
        .filter((e) => e.to.includes(email) && SIGN_IN_LINK.test(e.text ?? ""))
        .map((e) => e.text ?? "");
      return found.length >= count && found;
    },
    { timeoutMs: EVENT_MS, intervalMs: 100 },
  );
  return SIGN_IN_LINK.exec(texts.at(-1) ?? "")?.[0] ?? "";
}

/** A session cookie (`name=value`), its whole Set-Cookie line, and the link token used. */
export type FetchSession = { cookie: string; setCookie: string; token: string };

/** The `name=value` of a Set-Cookie header answering a request. */
export const sessionCookieOf = (response: Response): string | undefined =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0] ?? "")
    .find((pair) => pair.startsWith("remit_dashboard=") && pair !== "remit_dashboard=");

/**
 * Signs `email` in without a browser, as a browser would: asks for a link, takes it from the
 * outbox, presses its button. Answers the session cookie (`name=value`).
 */
export async function signInByFetch(
  stack: TestStack,
  email: string,
  options: { count?: number; cookie?: string } = {},
): Promise<FetchSession> {
  const asked = await stack.request("/dashboard/sign-in", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email }).toString(),
  });
  expect(asked.status).toBe(200);
  const link = await waitForSignInLink(stack, email, options.count ?? 1);
  const response = await stack.request(new URL(link).pathname, {
    method: "POST",
    redirect: "manual",
    headers: options.cookie ? { cookie: options.cookie } : {},
  });
  expect(response.status).toBe(303);
  const cookie = sessionCookieOf(response);
  if (!cookie) throw new Error("no session cookie set");
  const setCookie =
    response.headers.getSetCookie().find((line) => line.startsWith(`${cookie};`)) ?? "";
  return { cookie, setCookie, token: new URL(link).pathname.split("/").at(-1) ?? "" };
}

/**
 * A browser page signed in as `email` (signInByFetch's cookie in a new context at desktop
 * width): the context to close, and its page.
 */
export async function signedInPage(
  stack: TestStack,
  browser: Browser,
  email: string,
): Promise<{ context: BrowserContext; page: Page; cookie: string }> {
  const { cookie } = await signInByFetch(stack, email);
  const [name = "", value = ""] = cookie.split("=");
  const context = await browser.newContext({ viewport: WIDTHS.desktop });
  await context.addCookies([{ name, value, url: stack.api.url }]);
  return { context, page: await context.newPage(), cookie };
}

/** The CSRF token in a signed-in page's forms. */
export async function csrfOf(
  stack: TestStack,
  cookie: string,
  path = "/dashboard/keys",
): Promise<string> {
  const html = await (await stack.request(path, { headers: { cookie } })).text();
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no CSRF token on ${path}`);
  return token;
}

/**
 * A form post, as the dashboard's own pages send it (same origin); a header given as "" is
 * left out (a browser that sends no Sec-Fetch-Site, say).
 */
export const postForm = (
  stack: TestStack,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  stack.request(path, {
    method: "POST",
    redirect: "manual",
    headers: Object.fromEntries(
      Object.entries({
        "content-type": "application/x-www-form-urlencoded",
        origin: new URL(stack.api.url).origin,
        "sec-fetch-site": "same-origin",
        ...headers,
      }).filter(([, value]) => value !== ""),
    ),
    body: new URLSearchParams(fields).toString(),
  });

/** The widths the dashboard is looked at: a phone and a desktop. */
export const WIDTHS = { phone: { width: 420, height: 900 }, desktop: { width: 1280, height: 900 } };

/** A narrower phone (an iPhone 12–15's 390 px) and the desktop. */
export const PHONE_390 = {
  phone390: { width: 390, height: 844 },
  desktop: { width: 1280, height: 900 },
};

/**
 * The page at both widths: nothing overflows sideways at phone width, axe-core finds no
 * serious or critical violation, and a full-page screenshot lands in test-artifacts/.
 */
export async function checkPage(
  page: Page,
  name: string,
  widths: Record<string, { width: number; height: number }> = WIDTHS,
): Promise<void> {
  for (const [size, viewport] of Object.entries(widths)) {
    await page.setViewportSize(viewport);
    const overflow = await page.evaluate(() =>
      Array.from(document.querySelectorAll("main *, header *"))
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .map((e) => `${e.tagName}.${e.className}`),
    );
    expect(overflow, `${name} at ${size}: sideways overflow`).toEqual([]);
    await screenshot(page, `dashboard-${name}-${size}`);
  }
  const results = await new AxeBuilder({ page: page as never }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(serious, `${name}: axe-core serious/critical violations`).toEqual([]);
}
