import { describe, expect, test } from "vitest";
import type { Components } from "./apiDocument.ts";
import { exampleFromSchema, exampleOf } from "./exampleOf.ts";

const components: Components = {
  Thing: { type: "object", properties: { id: { type: "string" } }, example: { id: "t1" } },
  Plain: {
    type: "object",
    properties: {
      id: { type: "string", format: "uuid" },
      amount: { type: "string", example: "1.00" },
      count: { type: "integer", exclusiveMinimum: 0 },
      kind: { type: "string", enum: ["a", "b"] },
      note: { type: ["string", "null"] },
      tags: { type: "array", items: { type: "string", format: "email" } },
      meta: { type: "object", additionalProperties: { type: "boolean" } },
      thing: { $ref: "#/components/schemas/Thing" },
    },
  },
};

describe("exampleOf", () => {
  test("the media type's own example first, then a named one", () => {
    const schema = { $ref: "#/components/schemas/Thing" };
    expect(exampleOf({ schema, example: { id: "m" } }, components)).toEqual({
      value: { id: "m" },
      source: "media",
    });
    expect(exampleOf({ schema, examples: { one: { value: { id: "n" } } } }, components)).toEqual({
      value: { id: "n" },
      source: "media",
    });
  });

  test("then its schema's, through a $ref", () => {
    expect(exampleOf({ schema: { $ref: "#/components/schemas/Thing" } }, components)).toEqual({
      value: { id: "t1" },
      source: "schema",
    });
  });

  test("else one generated from the schema; none for a binary body", () => {
    expect(exampleOf({ schema: { $ref: "#/components/schemas/Plain" } }, components)).toEqual({
      source: "generated",
      value: {
        id: "4f1c2c7e-7d0c-4a1e-9a55-0c6f5c0a3b11",
        amount: "1.00",
        count: 1,
        kind: "a",
        note: "string",
        tags: ["someone@example.com"],
        meta: { key: true },
        thing: { id: "t1" },
      },
    });
    expect(exampleOf({ schema: { type: "string", format: "binary" } }, components)).toBeUndefined();
    expect(exampleOf({}, components)).toBeUndefined();
  });
});

describe("exampleFromSchema", () => {
  test("ends on a recursive schema", () => {
    const recursive: Components = {
      Node: { type: "object", properties: { child: { $ref: "#/components/schemas/Node" } } },
    };
    expect(exampleFromSchema({ $ref: "#/components/schemas/Node" }, recursive)).toEqual({
      child: null,
    });
  });
});
