import { describe, expect, test } from "vitest";
import type { Components } from "./apiDocument.ts";
import { constraintsOf, fieldRows, typeLabel } from "./fieldRows.ts";

const components: Components = {
  Item: {
    type: "object",
    properties: { price: { type: "string", pattern: "^\\d+\\.\\d{2}$", description: "Each." } },
    required: ["price"],
  },
  Node: { type: "object", properties: { child: { $ref: "#/components/schemas/Node" } } },
};

describe("typeLabel", () => {
  test.each([
    [{ type: "string", format: "uuid" }, "string (uuid)"],
    [{ type: ["string", "null"] }, "string | null"],
    [{ type: "array", items: { $ref: "#/components/schemas/Item" } }, "array of object"],
    [{ type: "array", items: { type: ["string", "number"] } }, "array of (string | number)"],
    [{ anyOf: [{ $ref: "#/components/schemas/Item" }, { type: "null" }] }, "object | null"],
    [
      {
        anyOf: [
          { type: "string", enum: ["a"] },
          { type: "string", enum: ["b"] },
        ],
      },
      "string",
    ],
    [{ enum: [1, 2] }, "number"],
    [{ type: "string", format: "binary" }, "binary"],
    [{}, "any"],
  ] as const)("%j → %s", (schema, label) => {
    expect(typeLabel(schema as never, components)).toBe(label);
  });
});

describe("constraintsOf", () => {
  test.each([
    [{ minLength: 1, maxLength: 200 }, ["1–200 characters"]],
    [{ maxLength: 254 }, ["at most 254 characters"]],
    [{ minLength: 1 }, ["at least 1 character"]],
    [{ exclusiveMinimum: 0, maximum: 10 }, ["> 0", "≤ 10"]],
    [{ minItems: 1, maxItems: 1 }, ["exactly 1 item"]],
    [{ enum: ["managed", "byo"] }, ['one of "managed", "byo"']],
    [{ const: "USDC" }, ['always "USDC"']],
    [{ anyOf: [{ enum: ["a", "b"] }, { enum: ["b", "c"] }] }, ['one of "a", "b", "c"']],
    [{ pattern: "^x$", default: 3 }, ["pattern ^x$", "default 3"]],
    [{ type: "array", items: { type: "string", maxLength: 5 } }, ["each: at most 5 characters"]],
  ] as const)("%j", (schema, expected) => {
    const shown = constraintsOf(schema as never, components).map(({ text, values }) =>
      values ? `${text} ${values.join(", ")}` : text,
    );
    expect(shown).toEqual(expected);
  });
});

describe("fieldRows", () => {
  test("nested arrays and objects by path, $refs resolved, required per level", () => {
    const rows = fieldRows(
      {
        type: "object",
        properties: {
          items: { type: "array", items: { $ref: "#/components/schemas/Item" }, minItems: 1 },
          owner: {
            type: "object",
            properties: {
              tags: {
                type: "array",
                items: { type: "array", items: { $ref: "#/components/schemas/Item" } },
              },
            },
          },
          metadata: { type: "object", additionalProperties: { type: ["string", "null"] } },
        },
        required: ["items"],
      },
      components,
    );
    expect(rows.map((r) => [r.name, r.type, r.required])).toEqual([
      ["items", "array of object", true],
      ["items[].price", "string", true],
      ["owner", "object", false],
      ["owner.tags", "array of array of object", false],
      ["owner.tags[][].price", "string", true],
      ["metadata", "object", false],
      ["metadata.{key}", "string | null", false],
    ]);
    expect(rows[1]).toMatchObject({
      description: "Each.",
      constraints: [{ text: "pattern", values: ["^\\d+\\.\\d{2}$"] }],
    });
  });

  test("a description beside a $ref wins over the target's; allOf parts are merged", () => {
    const rows = fieldRows(
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          {
            type: "object",
            properties: { item: { $ref: "#/components/schemas/Item", description: "Here." } },
          },
        ],
      },
      components,
    );
    expect(rows.map((r) => [r.name, r.required, r.description])).toEqual([
      ["a", true, undefined],
      ["item", false, "Here."],
      ["item.price", true, "Each."],
    ]);
  });

  test("a recursive schema ends instead of looping; a body that is not an object has no rows", () => {
    const rows = fieldRows({ $ref: "#/components/schemas/Node" }, components);
    expect(rows.map((r) => r.name)).toEqual(["child"]);
    expect(fieldRows({ type: "string", format: "binary" }, components)).toEqual([]);
  });
});
