import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { documentApp } from "../test/helpers/documentApp.ts";
import type { ApiDocument, JsonSchema, Media } from "./docs/apiDocument.ts";
import { operationsOf, resolve } from "./docs/apiDocument.ts";
import { operationAnchor } from "./docs/renderOperation.ts";
import { renderDocs } from "./docs.ts";

// The real app's document and page, generated from the route schemas alone: no database.
const app = documentApp();

const load = async () => {
  const doc = (await (await app.request("/openapi.json")).json()) as ApiDocument;
  const response = await app.request("/docs");
  return { doc, response, page: await response.text() };
};

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

/** The HTML of one operation's section. */
function sectionOf(page: string, anchor: string): string {
  const start = page.indexOf(`<section class="op" id="${anchor}"`);
  expect(start, `a section for ${anchor}`).toBeGreaterThanOrEqual(0);
  return page.slice(start, page.indexOf("</section>", start));
}

/** The texts of the example blocks of a section, by their label. */
const examples = (section: string) =>
  new Map(
    [
      ...section.matchAll(
        /<pre class="example" tabindex="0" aria-label="([^"]*)"><code>([\s\S]*?)<\/code><\/pre>/g,
      ),
    ].map((m) => [textOf(m[1] ?? "").split(":")[0] ?? "", textOf(m[2] ?? "")] as const),
  );

/** The names of the fields a body's schema declares at its top level. */
function topFields(media: Media | undefined, doc: ApiDocument): string[] {
  if (!media?.schema) return [];
  const schema: JsonSchema = resolve(media.schema, doc.components?.schemas ?? {}).schema;
  return Object.keys(schema.properties ?? {});
}

const jsonBody = (content: Record<string, Media> | undefined) => content?.["application/json"];

/** The example the document gives for a body: the media type's, else its schema's. */
const documentedExample = (media: Media, doc: ApiDocument) =>
  media.example ??
  (media.schema && resolve(media.schema, doc.components?.schemas ?? {}).schema.example);

describe("GET /docs", () => {
  test("every operation: its path, summary, parameters, request and response fields", async () => {
    const { doc, page } = await load();
    const operations = operationsOf(doc);
    // 20 for invoices, links, payments and accounts, plus the lists (3), a link's details, the
    // two exports, GET/PATCH /api/merchant/settings, GET /api/transactions/{tx_hash}, void, the
    // two refunds, the webhook endpoints (7), the event log (2), the x402 resource, invoice
    // schedules (8), the reminder policy (2), a reminder now, the receivables report and its
    // CSV, the payouts (2), the e-invoice download, and the credit notes (5).
    expect(operations.length).toBe(67);
    for (const entry of operations) {
      const { path, operation } = entry;
      const section = sectionOf(page, operationAnchor(entry));
      const text = textOf(section);
      expect(text).toContain(path);
      expect(page).toContain(`href="#${operationAnchor(entry)}"`);
      expect(text).toContain(operation.summary ?? "");
      for (const parameter of operation.parameters ?? []) expect(text).toContain(parameter.name);
      for (const field of topFields(jsonBody(operation.requestBody?.content), doc))
        expect(section, `${path}: request field ${field}`).toContain(`<b>${field}</b>`);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        expect(section).toContain(`>${status}</span>`);
        for (const field of topFields(jsonBody(response.content), doc))
          expect(section, `${path} ${status}: field ${field}`).toContain(`<b>${field}</b>`);
      }
    }
  });

  test("nested fields by their path, with type, presence and rules", async () => {
    const { page } = await load();
    const invoice = textOf(sectionOf(page, "post-api-invoices"));
    expect(invoice).toMatch(/line_items\[\]\.unit_price required\s*string\s*The price of one unit/);
    expect(invoice).toContain("pattern ^(0|[1-9]\\d{0,11})\\.\\d{1,6}$");
    expect(invoice).toMatch(/line_items required\s*array of object/);
    expect(invoice).toContain("1–30 items");
    expect(invoice).toMatch(/line_items\[\]\.quantity required\s*number[\s\S]*?> 0\s*≤ 1000000000/);
    expect(invoice).toMatch(/wallet_type required\s*string[\s\S]*?one of "managed", "byo"/);
    expect(invoice).toMatch(/vendor_address optional\s*string/);
    expect(invoice).toMatch(/idempotency-key header optional/);
    expect(invoice).toMatch(/error\.fields\[\]\.path\s*string/);
    expect(invoice).toMatch(/sent_at\s*string \| null/);

    const link = textOf(sectionOf(page, "post-api-links"));
    expect(link).toMatch(/amount required\s*string\s*A USDC amount/);
    expect(link).toMatch(/metadata\.\{key\} optional\s*string \| number \| boolean \| null/);
    const invoiceBody = textOf(sectionOf(page, "get-api-invoices-id"));
    expect(invoiceBody).toMatch(/payments\[\]\.counted\s*boolean/);
    expect(invoiceBody).toMatch(/currency\s*string[\s\S]*?one of "USDC", "USD", "EUR", "GBP"/);
    expect(invoiceBody).toMatch(/sweeps\[\]\.status\s*string/);
  });

  test("every operation has an example request, and of its success the document's example", async () => {
    const { doc, page } = await load();
    for (const entry of operationsOf(doc)) {
      const { method, path, operation } = entry;
      const blocks = examples(sectionOf(page, operationAnchor(entry)));
      const request = blocks.get("Example request");
      expect(request, `${path}: an example request`).toBeDefined();
      expect(request?.split("\n")[0]).toMatch(new RegExp(`^${method.toUpperCase()} /api/`));
      expect(request, "path parameters filled in").not.toMatch(/\{\w+\}/);
      const body = jsonBody(operation.requestBody?.content);
      if (body) {
        const json = request?.slice(request.indexOf("\n\n") + 2) ?? "";
        expect(JSON.parse(json)).toEqual(documentedExample(body, doc));
      }
      const [, success] =
        Object.entries(operation.responses ?? {}).find(([s]) => s.startsWith("2")) ?? [];
      const media = jsonBody(success?.content);
      if (media) {
        const shown =
          blocks.get("Example response 200") ??
          blocks.get("Example response 201") ??
          blocks.get("Example response 202");
        expect(shown, `${path}: an example response`).toBeDefined();
        expect(JSON.parse(shown ?? "")).toEqual(documentedExample(media, doc));
      }
    }
    const pdf = textOf(sectionOf(page, "get-api-invoices-id-pdf"));
    expect(pdf).toContain("GET /api/invoices/4f1c2c7e-7d0c-4a1e-9a55-0c6f5c0a3b11/pdf");
    expect(pdf).toContain("application/pdf: the file's bytes.");
  });

  test("is served with a CSP that allows its one style block by hash, and has no script", async () => {
    const { response, page } = await load();
    const csp = response.headers.get("content-security-policy") ?? "";
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? "";
    const hash = createHash("sha256").update(style).digest("base64");
    expect(csp).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect(page.match(/<style/g)).toHaveLength(1);
    expect(page).not.toMatch(
      /<script|\sstyle=|\son\w+=|<link|<img|https?:\/\/(?!localhost)[^"<\s]*"/i,
    );
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("renderDocs", () => {
  const evil = "<script>alert(1)</script>";
  const doc: ApiDocument = {
    info: {
      title: `Remit ${evil}`,
      version: `1"><script>`,
      description: `See \`${evil}\` and ${evil}`,
    },
    paths: {
      [`/api/things/{id}/${evil}`]: {
        post: {
          operationId: `x"><script>alert(1)</script>`,
          tags: [`Tag ${evil}`],
          summary: `Make ${evil}`,
          description: `Calls \`send_now\`; ${evil}`,
          parameters: [
            {
              name: "id",
              in: "path",
              required: true,
              description: evil,
              schema: { type: "string", example: evil },
            },
          ],
          requestBody: {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: {
                    [evil]: { type: "string", description: evil, pattern: evil, enum: [evil] },
                    safe: { $ref: "#/components/schemas/Thing" },
                  },
                  required: [evil],
                },
              },
            },
          },
          responses: {
            "201": {
              description: `Made ${evil}`,
              content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
            },
            "400": {
              description: evil,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: { e: { type: "string", description: evil } },
                  },
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: "object",
          properties: { name: { type: "string", description: evil } },
          example: { name: evil },
        },
      },
    },
  };

  test("escapes every text of the document: a description with <script> renders as text", () => {
    const page = renderDocs(doc);
    expect(page).not.toMatch(/<script/i);
    // An attribute value cannot be closed from the document.
    expect(page).toContain('id="x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    // Backticks are code, with their content escaped too.
    expect(page).toContain("<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>");
    expect(page).toContain("Calls <code>send_now</code>");
  });

  test("generates an example for a body whose schema carries none", () => {
    const page = renderDocs(doc);
    const request =
      /aria-label="Example request[^"]*"><code>([\s\S]*?)<\/code>/.exec(page)?.[1] ?? "";
    const json = textOf(request).split("\n\n")[1] ?? "";
    expect(JSON.parse(json)).toEqual({ [evil]: evil, safe: { name: evil } });
  });
});
