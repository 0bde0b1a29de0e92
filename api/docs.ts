import type { OpenAPIHono } from "@hono/zod-openapi";
import { html, raw } from "hono/html";
import { escapeHtml } from "../internal/escapeHtml.ts";

/** The OpenAPI 3.1 document the app generates (`app.getOpenAPI31Document`). */
type Document = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;

/** The keys of a path item that are operations, in the order OpenAPI lists them. */
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** `code` spans in descriptions, nothing more. */
const inline = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");

/**
 * A readable API reference rendered on the server from the OpenAPI document: no script and
 * nothing fetched from elsewhere, so it works on machines without internet access.
 */
export function renderDocs(doc: Document) {
  const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = item[method];
      return op ? [{ path, method: method.toUpperCase(), op }] : [];
    }),
  );
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${doc.info.title} — API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#1f2933}
h1{margin-bottom:.2rem}.op{border:1px solid #d9e2ec;border-radius:8px;padding:1rem;margin:1rem 0}
.m{font:600 12px monospace;padding:2px 6px;border-radius:4px;background:#e4ecff;color:#1652f0;margin-right:.5rem}
.p{font-family:monospace;font-size:15px}code{background:#f0f4f8;padding:1px 4px;border-radius:3px}
ul{margin:.3rem 0}a{color:#1652f0}
</style>
</head>
<body>
<h1>${doc.info.title}</h1>
<p>Version ${doc.info.version}. The machine-readable document is <a href="/openapi.json">/openapi.json</a>.</p>
${raw(doc.info.description ? `<p>${inline(doc.info.description)}</p>` : "")}
${raw(
  operations
    .map(
      ({
        path,
        method,
        op,
      }) => `<section class="op"><div><span class="m">${method}</span><span class="p">${escapeHtml(path)}</span></div>
<h3>${escapeHtml(op.summary ?? "")}</h3>${op.description ? `<p>${inline(op.description)}</p>` : ""}
<ul>${Object.entries(op.responses ?? {})
        .map(
          ([status, response]) =>
            `<li><strong>${status}</strong> ${inline(response.description ?? "")}</li>`,
        )
        .join("")}</ul></section>`,
    )
    .join("\n"),
)}
</body>
</html>`;
}
