import { escapeHtml } from "../../internal/escapeHtml.ts";

export { escapeHtml };

/**
 * Text for the page, escaped, with `code` spans: descriptions quote field names in backticks.
 * The backticks are matched after escaping, so nothing in the text becomes markup but them.
 *
 * @example
 * inline("`send_now` <b>") // "<code>send_now</code> &lt;b&gt;"
 */
export const inline = (text: string): string =>
  escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");

/** Text as a scrollable block, focusable so a keyboard can scroll it too. */
export const preBlock = (label: string, text: string): string =>
  `<pre class="example" tabindex="0" aria-label="${escapeHtml(label)}"><code>${escapeHtml(text)}</code></pre>`;

/** A value as pretty-printed JSON. */
export const prettyJson = (value: unknown): string => JSON.stringify(value, null, 2) ?? "null";
