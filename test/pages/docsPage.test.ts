import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { artifactsDir, launchBrowser } from "../helpers/browser.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";

const VIEWPORTS = {
  phone: { width: 420, height: 900 },
  desktop: { width: 1280, height: 900 },
} as const;

/**
 * GET /docs in a real browser, under the headers the API serves it with: its one inline style
 * applies under its CSP with nothing refused, it runs no script, nothing but a `<pre>` scrolls
 * sideways on a phone, and a keyboard reaches every operation from the contents.
 */
describe("the API reference at /docs, at phone and desktop size", () => {
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** Opens /docs at `size`, failing on any console error (a CSP refusal is one). */
  async function open(size: keyof typeof VIEWPORTS): Promise<Page> {
    const page = await browser.newPage({ viewport: VIEWPORTS[size] });
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    const response = await page.goto(`${stack.api.url}/docs`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toMatch(
      /^default-src 'none'; style-src 'sha256-/,
    );
    expect(errors).toEqual([]);
    return page;
  }

  for (const size of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) {
    test(`${size}: styled under the CSP, no script, nothing wider than the screen but a <pre>`, async () => {
      const page = await open(size);
      try {
        const state = await page.evaluate(() => {
          const width = document.documentElement.clientWidth;
          const wide = Array.from(document.querySelectorAll("body *"))
            .filter((e) => !e.closest("pre") && e.getBoundingClientRect().right > width + 0.5)
            .map((e) => `${e.tagName}.${e.className}`);
          const pre = document.querySelector("pre.example");
          return {
            wide,
            scrollWidth: document.documentElement.scrollWidth,
            width,
            scripts: document.scripts.length,
            preBackground: pre ? getComputedStyle(pre).backgroundColor : null,
            operations: document.querySelectorAll("section.op").length,
          };
        });
        expect(state.wide).toEqual([]);
        expect(state.scrollWidth).toBeLessThanOrEqual(state.width);
        expect(state.scripts).toBe(0);
        // The style block applied: its hash is the only style the CSP allows.
        expect(state.preBackground).toBe("rgb(15, 27, 45)");
        expect(state.operations).toBeGreaterThanOrEqual(9);
        // The first screen, not the whole page: the reference is tens of screens tall, and a
        // full-page capture of it took 50 s of Chromium's time on a quiet machine.
        await page.screenshot({
          path: path.join(artifactsDir, `docs-${size}.png`),
          timeout: 120_000,
        });
        // The first screen of invoice creation, as a reader arriving from the contents sees it.
        await page.goto(`${stack.api.url}/docs#post-api-invoices`);
        await page.screenshot({
          path: path.join(artifactsDir, `docs-${size}-create-invoice.png`),
          timeout: 120_000,
        });
      } finally {
        await page.close();
      }
    });
  }

  test("a keyboard goes from the skip link and the contents to an operation", async () => {
    const page = await open("phone");
    try {
      const focused = () =>
        page.evaluate(() => (document.activeElement as HTMLElement | null)?.textContent?.trim());
      await page.keyboard.press("Tab");
      expect(await focused()).toBe("Skip to the endpoints");
      await page.keyboard.press("Tab");
      expect(await focused()).toBe("/openapi.json");
      await page.keyboard.press("Tab");
      expect(await focused()).toContain("/api/invoices");
      await page.keyboard.press("Enter");
      // The first operation of the contents: the invoices' list, then their creation.
      expect(new URL(page.url()).hash).toBe("#get-api-invoices");
      expect(await page.locator("#get-api-invoices h3").isVisible()).toBe(true);
      // Error responses are folded in <details>: a keyboard opens them.
      const summary = page.locator("#post-api-invoices details summary").first();
      await summary.focus();
      await page.keyboard.press("Enter");
      expect(await page.locator("#post-api-invoices details").first().getAttribute("open")).toBe(
        "",
      );
    } finally {
      await page.close();
    }
  });
});
