import { describe, expect, test } from "vitest";
import { closeObjectSchemas, type OpenApiDocument, openApiChecker } from "./openApi.ts";

const document: OpenApiDocument = {
  paths: {
    "/things/{id}": {
      get: {
        responses: {
          "200": {
            content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
          },
          "404": {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: { error: { type: "string" } },
                  required: ["error"],
                },
              },
            },
          },
        },
      },
    },
    "/things/{id}/file": {
      get: { responses: { "200": { content: { "application/pdf": { schema: {} } } } } },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: "object",
        properties: {
          id: { type: "string", format: "uuid" },
          note: { type: ["string", "null"] },
          tags: {
            type: "array",
            items: { type: "object", properties: { name: { type: "string" } } },
          },
          extra: { type: "object", additionalProperties: { type: "number" } },
          kind: { anyOf: [{ type: "string", enum: ["a"] }, { type: "number" }] },
        },
        required: ["id", "note"],
      },
    },
  },
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const thing = { id: "4f1c2c7e-7d0c-4a1e-9a55-0c6f5c0a3b11", note: null };

describe("closeObjectSchemas", () => {
  test("closes every object that lists properties, nested ones too, and leaves maps open", () => {
    const closed = closeObjectSchemas(document);
    const schema = closed.components?.schemas?.Thing as {
      additionalProperties: unknown;
      properties: Record<
        string,
        { items?: { additionalProperties: unknown }; additionalProperties?: unknown }
      >;
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.tags?.items?.additionalProperties).toBe(false);
    expect(schema.properties.extra?.additionalProperties).toEqual({ type: "number" });
    // A copy: the document itself is untouched.
    expect(document.components?.schemas?.Thing).not.toHaveProperty("additionalProperties");
  });
});

describe("openApiChecker", () => {
  const check = (response: Response, path = "/things/{id}") =>
    openApiChecker(document).check("get", path, response);

  test("passes a body the document describes, following $ref, type lists and anyOf", async () => {
    await expect(
      check(json({ ...thing, tags: [{ name: "x" }], extra: { n: 1 }, kind: "a" })),
    ).resolves.toMatchObject({ key: "GET /things/{id} 200", status: 200 });
    await expect(check(json({ error: "not found" }, 404))).resolves.toMatchObject({ status: 404 });
  });

  test("fails a field the document does not declare, at any depth", async () => {
    await expect(check(json({ ...thing, surprise: 1 }))).rejects.toThrow(/additional properties/);
    await expect(check(json({ ...thing, tags: [{ name: "x", surprise: 1 }] }))).rejects.toThrow(
      /\/tags\/0 must NOT have additional properties/,
    );
  });

  test("fails a missing required field, a wrong type, an enum miss and a bad format", async () => {
    await expect(check(json({ id: thing.id }))).rejects.toThrow(/required property 'note'/);
    await expect(check(json({ ...thing, note: 3 }))).rejects.toThrow(/\/note must be string,null/);
    await expect(check(json({ ...thing, kind: "b" }))).rejects.toThrow(/\/kind/);
    await expect(check(json({ ...thing, id: "nope" }))).rejects.toThrow(/must match format "uuid"/);
  });

  test("fails an undocumented status or media type", async () => {
    await expect(check(json({ error: "x" }, 500))).rejects.toThrow(/lists only 200, 404/);
    await expect(check(new Response("hi", { status: 200 }))).rejects.toThrow(
      /answered text\/plain/,
    );
  });

  test("takes a documented binary body as bytes, and remembers what it checked", async () => {
    const api = openApiChecker(document);
    const pdf = new Response("%PDF-1.7", { headers: { "content-type": "application/pdf" } });
    const { body } = await api.check("get", "/things/{id}/file", pdf);
    expect(new TextDecoder().decode(body as Uint8Array)).toBe("%PDF-1.7");
    expect(api.exercised()).toEqual(["GET /things/{id}/file 200"]);
    expect(api.documented().sort()).toEqual([
      "GET /things/{id} 200",
      "GET /things/{id} 404",
      "GET /things/{id}/file 200",
    ]);
  });
});
