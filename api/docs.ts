import { createHash } from "node:crypto";
import { type ApiDocument, type OperationEntry, operationsOf } from "./docs/apiDocument.ts";
import { escapeHtml, inline } from "./docs/markup.ts";
import { operationAnchor, renderOperation } from "./docs/renderOperation.ts";
import type { Router } from "./openapi.ts";

/** The page's only style: inline, allowed by its hash alone (DOCS_CSP). No script at all. */
const CSS = `*{box-sizing:border-box}
body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2933;background:#fff}
.wrap{max-width:980px;margin:0 auto;padding:1rem 1.25rem 3rem}
a{color:#1652f0}
a:focus-visible,summary:focus-visible,pre:focus-visible,main:focus-visible{outline:3px solid #1652f0;outline-offset:2px;border-radius:4px}
.skip{position:absolute;left:-9999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem .75rem;z-index:1}
h1{font-size:1.9rem;margin:.75rem 0 .25rem}
h2{font-size:1.4rem;margin:2.5rem 0 .5rem;padding-bottom:.3rem;border-bottom:2px solid #d9e2ec}
h3{font-size:1.1rem;margin:0;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
h4{font-size:.8rem;text-transform:uppercase;letter-spacing:.06em;color:#52606d;margin:1.5rem 0 .4rem}
h5{font-size:1rem;font-weight:600;margin:.75rem 0 .25rem}
code{font:.9em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f0f4f8;padding:1px 4px;border-radius:3px;overflow-wrap:anywhere}
.intro{color:#52606d}
.toc h3{font-size:1rem;margin:1rem 0 .25rem}
.toc ul{list-style:none;padding:0;margin:0}
.toc li{margin:.35rem 0}
.toc a{text-decoration:none}.toc a:hover .what{text-decoration:underline}
.toc code{background:none;padding:0;color:#1f2933}
.toc .what{display:block;font-size:.9rem;margin-left:.1rem}
.op{border:1px solid #d9e2ec;border-radius:10px;padding:1rem 1.25rem;margin:1.25rem 0;scroll-margin-top:.5rem}
.m{font:700 .75rem ui-monospace,monospace;padding:3px 7px;border-radius:4px;color:#fff;background:#52606d}
.m-get{background:#0f7b4a}.m-post{background:#1652f0}.m-put,.m-patch{background:#8d5300}.m-delete{background:#c0262d}
.path{font-size:1rem;background:none;padding:0}
.summary{font-weight:600;margin:.6rem 0 .25rem}
table.fields{width:100%;border-collapse:collapse;font-size:.92rem;margin:.25rem 0 .5rem}
caption{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.fields th,.fields td{text-align:left;vertical-align:top;padding:.5rem .5rem .5rem 0;border-top:1px solid #e4e7eb}
.fields thead th{font-size:.75rem;text-transform:uppercase;letter-spacing:.04em;color:#52606d;border-top:0;padding-bottom:.2rem}
.fields th[scope=row]{font-weight:400;width:34%}
.fields td.type{width:18%;font:.85rem ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:#6b3fa0;overflow-wrap:anywhere}
.fields p{margin:0 0 .2rem}
.name{background:none;padding:0}.name .parent{color:#7b8794}
.req,.opt{font-size:.75rem;white-space:nowrap}.req{color:#a8400c;font-weight:600}.opt{color:#7b8794}
.in{font-size:.75rem;color:#52606d}
.rules{margin:.15rem 0 0;padding:0;list-style:none;font-size:.85rem;color:#52606d}
.rules li{display:inline}.rules li+li::before{content:" · "}
.status{font:700 .8rem ui-monospace,monospace;padding:2px 6px;border-radius:4px;background:#e4e7eb}
.s2{background:#d5f5e3;color:#0b5e36}.s4{background:#fde8d7;color:#8a3c0b}.s5{background:#fde2e2;color:#9b1c1c}
details.response{border-top:1px solid #e4e7eb;padding:.45rem 0}
details.response summary{cursor:pointer}
.media{margin:.3rem 0;font-size:.9rem;color:#52606d}
.exlabel{margin:.75rem 0 .25rem;font-weight:600;font-size:.9rem}
pre.example{background:#0f1b2d;color:#e6edf3;padding:.8rem 1rem;border-radius:8px;overflow:auto;max-height:36rem;font-size:.85rem;line-height:1.45;margin:.25rem 0 .75rem}
pre.example code{background:none;padding:0;color:inherit;font-size:inherit;overflow-wrap:normal}
.top{margin:.75rem 0 0;font-size:.85rem}
@media (max-width:640px){
.wrap{padding:.5rem .75rem 2rem}
h1{font-size:1.6rem}
.op{padding:.75rem;border-radius:8px}
.fields thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
.fields,.fields tbody,.fields tr,.fields th,.fields td{display:block;width:auto}
.fields th[scope=row],.fields td.type{width:auto}
.fields tr{border-top:1px solid #e4e7eb;padding:.5rem 0}
.fields th,.fields td{border:0;padding:.1rem 0}
pre.example{font-size:.78rem;padding:.7rem .8rem}
}`;

/**
 * The reference's Content-Security-Policy: nothing may load or run but the page's own style
 * block, named by its hash; no script is allowed at all.
 */
const DOCS_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(CSS).digest("base64")}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Operations by their first tag, in the order the tags first appear. */
function byTag(operations: OperationEntry[]): Map<string, OperationEntry[]> {
  const groups = new Map<string, OperationEntry[]>();
  for (const entry of operations) {
    const tag = entry.operation.tags?.[0] ?? "Other";
    groups.set(tag, [...(groups.get(tag) ?? []), entry]);
  }
  return groups;
}

const tagAnchor = (tag: string) => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

/**
 * The API reference rendered on the server from the OpenAPI document: every operation with its
 * parameters, request and response fields, and an example. No script and nothing fetched from
 * elsewhere, so it works on machines without internet access; every text of the document is
 * escaped (backticks become `code`).
 */
export function renderDocs(doc: ApiDocument): string {
  const components = doc.components?.schemas ?? {};
  const groups = [...byTag(operationsOf(doc))];
  const contents = groups
    .map(
      ([tag, entries]) =>
        `<h3>${escapeHtml(tag)}</h3><ul>${entries
          .map(
            (entry) =>
              `<li><a href="#${escapeHtml(operationAnchor(entry))}"><span class="m m-${entry.method}">${entry.method.toUpperCase()}</span> <code>${escapeHtml(entry.path)}</code><span class="what">${inline(entry.operation.summary ?? "")}</span></a></li>`,
          )
          .join("")}</ul>`,
    )
    .join("\n");
  const sections = groups
    .map(
      ([tag, entries]) =>
        `<h2 id="${tagAnchor(tag)}">${escapeHtml(tag)}</h2>\n${entries.map((entry) => renderOperation(entry, components)).join("\n")}`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.info.title)} — API reference</title>
<style>${CSS}</style>
</head>
<body>
<a class="skip" href="#endpoints">Skip to the endpoints</a>
<div class="wrap">
<header>
<h1>${escapeHtml(doc.info.title)}</h1>
<p class="intro">Version ${escapeHtml(doc.info.version)}. The machine-readable document is <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
${doc.info.description ? `<p>${inline(doc.info.description)}</p>` : ""}
</header>
<nav class="toc" id="contents" aria-labelledby="contents-title">
<h2 id="contents-title">Contents</h2>
${contents}
</nav>
<main id="endpoints" tabindex="-1">
${sections}
</main>
</div>
</body>
</html>
`;
}

/** Serves the reference at `GET /docs`, rendered once from the app's document, under DOCS_CSP. */
export function registerDocs(
  app: Router,
  document: Parameters<Router["getOpenAPI31Document"]>[0],
): void {
  let page: string | undefined;
  app.get("/docs", (c) => {
    // Rendered at the first request, when every route is registered.
    page ??= renderDocs(app.getOpenAPI31Document(document));
    c.header("Content-Security-Policy", DOCS_CSP);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    c.header("X-Frame-Options", "DENY");
    return c.html(page);
  });
}
