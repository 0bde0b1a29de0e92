import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, test } from "vitest";
import { documentApp } from "../test/helpers/documentApp.ts";
import { closeObjectSchemas } from "../test/helpers/openApi.ts";

// The document is generated from the route schemas alone: no database is touched.
const app = documentApp();

describe("GET /openapi.json", () => {
  test("documents every API route, each schema included", async () => {
    const response = await app.request("/openapi.json");
    expect(response.status).toBe(200);
    const doc = (await response.json()) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/api/invoices",
        "/api/invoices/{id}",
        "/api/invoices/{id}/pdf",
        "/api/invoices/{id}/einvoice",
        "/api/invoices/{id}/credit-notes",
        "/api/credit-notes",
        "/api/credit-notes/{id}",
        "/api/credit-notes/{id}/pdf",
        "/api/credit-notes/{id}/einvoice",
        "/api/invoices/{id}/send",
        "/api/invoices/{id}/status",
        "/api/invoices/{id}/webhooks",
        "/api/invoices/{id}/webhooks/{event_id}/redeliver",
        "/api/links",
        "/api/payments/status/{slug}",
        "/api/invoices/by-slug/{slug}/pdf",
        "/api/merchants/claim",
        "/api/keys",
        "/api/keys/{id}",
        "/api/members",
        "/api/members/{id}",
        "/api/merchant/payouts",
        "/api/merchant/wallets",
        "/api/merchant/wallets/{address}",
        "/api/audit",
        "/api/payments/{slug}/authorizations",
        "/api/payments/{slug}/authorizations/{id}",
        "/api/invoices/{id}/void",
        "/api/invoices/{id}/refunds",
        "/api/links/{slug}/refunds",
        // Lists, a link's details and the exports.
        "/api/links/{slug}",
        "/api/payments",
        "/api/exports/invoices.csv",
        "/api/exports/payments.csv",
        "/api/merchant/settings",
        "/api/transactions/{tx_hash}",
        // Webhook endpoints and the event log.
        "/api/webhook-endpoints",
        "/api/webhook-endpoints/{id}",
        "/api/webhook-endpoints/{id}/rotate-secret",
        "/api/webhook-endpoints/{id}/test",
        "/api/events",
        "/api/events/{id}",
        // The x402 resource of every invoice and link.
        "/api/x402/{slug}",
        // Invoice schedules, reminders and aged receivables.
        "/api/invoice-schedules",
        "/api/invoice-schedules/{id}",
        "/api/invoice-schedules/{id}/pause",
        "/api/invoice-schedules/{id}/resume",
        "/api/invoice-schedules/{id}/cancel",
        "/api/invoice-schedules/{id}/run",
        "/api/reminder-policy",
        "/api/invoices/{id}/remind",
        "/api/reports/receivables",
        "/api/exports/receivables.csv",
      ].sort(),
    );
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        "CreateInvoiceRequest",
        "CreateLinkRequest",
        "Invoice",
        "Error",
        "PaymentStatusResponse",
      ]),
    );
  });
});

describe("rate-limited routes", () => {
  test("document their 429", async () => {
    const doc = (await (await app.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    for (const [path, method] of [
      ["/api/invoices", "post"],
      ["/api/links", "post"],
      ["/api/invoices/{id}/status", "get"],
      ["/api/payments/status/{slug}", "get"],
      ["/api/payments/{slug}/authorizations", "post"],
      ["/api/payments/{slug}/authorizations/{id}", "get"],
      ["/api/transactions/{tx_hash}", "get"],
    ] as const) {
      expect(doc.paths[path]?.[method]?.responses).toHaveProperty("429");
    }
  });
});

/** `#/paths/~1api~1links/post`: a JSON pointer into the document, as a URI fragment. */
const pointer = (...segments: string[]) =>
  `openapi.json#/${segments.map((s) => encodeURIComponent(s.replace(/~/g, "~0").replace(/\//g, "~1"))).join("/")}`;

describe("the document's examples", () => {
  type Media = { schema?: { $ref?: string }; example?: unknown };
  type Operation = {
    parameters?: { name: string; in: string; schema?: { example?: unknown } }[];
    requestBody?: { content: Record<string, Media> };
    responses: Record<string, { content?: Record<string, Media> }>;
  };
  type Doc = {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, { example?: unknown }> };
  };
  const load = async () => (await (await app.request("/openapi.json")).json()) as Doc;
  /** The example a reader is shown: the media type's, else its schema's (through a `$ref`). */
  const exampleOf = (doc: Doc, media: Media) =>
    media.example ??
    (media.schema?.$ref
      ? doc.components.schemas[media.schema.$ref.split("/").pop() ?? ""]?.example
      : (media.schema as { example?: unknown } | undefined)?.example);

  /** Every (request or success response) JSON body of every operation, with its example. */
  const bodies = (doc: Doc) =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) => {
        const at = `${method.toUpperCase()} ${path}`;
        const request = operation.requestBody?.content["application/json"];
        const success = Object.entries(operation.responses).filter(([status]) => /^2/.test(status));
        return [
          ...(request
            ? [
                {
                  at: `${at} request`,
                  media: request,
                  where: [path, method, "requestBody", "content", "application/json", "schema"],
                },
              ]
            : []),
          ...success.flatMap(([status, response]) => {
            const media = response.content?.["application/json"];
            return media
              ? [
                  {
                    at: `${at} ${status}`,
                    media,
                    where: [
                      path,
                      method,
                      "responses",
                      status,
                      "content",
                      "application/json",
                      "schema",
                    ],
                  },
                ]
              : [];
          }),
        ];
      }),
    );

  test("every JSON request body and success response carries one", async () => {
    const doc = await load();
    const missing = bodies(doc)
      .filter(({ media }) => exampleOf(doc, media) === undefined)
      .map(({ at }) => at);
    expect(missing).toEqual([]);
    expect(bodies(doc).length).toBeGreaterThanOrEqual(10);
  });

  test("each matches its schema, responses with no field the document does not declare", async () => {
    const doc = await load();
    const validator = (document: unknown) => {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema(document as object, "openapi.json");
      return ajv;
    };
    const requests = validator(doc);
    const responses = validator(closeObjectSchemas(doc));
    const problems: string[] = [];
    const check = (ajv: Ajv2020, at: string, ref: string, value: unknown) => {
      const validate = ajv.getSchema(ref);
      if (!validate) return problems.push(`${at}: no schema at ${ref}`);
      if (!validate(value)) problems.push(`${at}: ${ajv.errorsText(validate.errors)}`);
    };
    for (const { at, media, where } of bodies(doc)) {
      const ajv = at.endsWith("request") ? requests : responses;
      check(ajv, at, pointer("paths", ...where), exampleOf(doc, media));
    }
    for (const [name, schema] of Object.entries(doc.components.schemas))
      if (schema.example !== undefined)
        check(
          name.endsWith("Request") ? requests : responses,
          name,
          pointer("components", "schemas", name),
          schema.example,
        );
    expect(problems).toEqual([]);
  });

  test("every path parameter has an example, so every example request names a real path", async () => {
    const doc = await load();
    const missing = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.values(item).flatMap((operation) =>
        (operation.parameters ?? [])
          .filter((p) => p.in === "path" && p.schema?.example === undefined)
          .map((p) => `${path} ${p.name}`),
      ),
    );
    expect(missing).toEqual([]);
  });
});
