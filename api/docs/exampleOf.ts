import { type Components, type JsonSchema, type Media, resolve } from "./apiDocument.ts";

/** Where an example shown on the page came from. */
export type ExampleSource = "media" | "schema" | "generated";

const MAX_DEPTH = 10;

/** Values for strings of a known format, so a generated example still reads like real data. */
const BY_FORMAT: Record<string, string> = {
  uuid: "4f1c2c7e-7d0c-4a1e-9a55-0c6f5c0a3b11",
  email: "someone@example.com",
  uri: "https://example.com",
  url: "https://example.com",
  date: "2026-12-31",
  "date-time": "2026-12-31T12:00:00.000Z",
};

const own = (schema: JsonSchema): { value: unknown } | undefined => {
  if (schema.example !== undefined) return { value: schema.example };
  if (schema.examples?.length) return { value: schema.examples[0] };
  return undefined;
};

/**
 * An example value of `input`: its own `example` (or first of `examples`) or its `$ref`'s,
 * else one built from its parts: each property's example, an array of one item, the first
 * allowed value, a value of the string's format, a number within the bounds. A fallback for
 * schemas that carry none: the routes' schemas do.
 *
 * @example
 * exampleFromSchema({ type: "object", properties: { n: { type: "number", exclusiveMinimum: 0 } } }, {}) // { n: 1 }
 */
export function exampleFromSchema(
  input: JsonSchema,
  components: Components,
  seen: ReadonlySet<string> = new Set(),
  depth = 0,
): unknown {
  const found = own(input);
  if (found) return found.value;
  const { schema, seen: inner } = resolve(input, components, seen);
  const example = own(schema);
  if (example) return example.value;
  const of = (sub: JsonSchema) => exampleFromSchema(sub, components, inner, depth + 1);
  if (depth > MAX_DEPTH) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const members = schema.anyOf ?? schema.oneOf;
  if (members?.length)
    return of(members.find((m) => m.type !== "null") ?? (members[0] as JsonSchema));
  if (schema.allOf)
    return Object.assign(
      {},
      ...schema.allOf.map((part) => of(part) as object).filter((v) => typeof v === "object"),
    );
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const type =
    types.find((t) => t !== "null") ??
    (schema.properties || schema.additionalProperties
      ? "object"
      : schema.items
        ? "array"
        : undefined);
  switch (type) {
    case "object": {
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {}))
        value[key] = of(property);
      if (!schema.properties && typeof schema.additionalProperties === "object")
        value.key = of(schema.additionalProperties);
      return value;
    }
    case "array":
      return schema.items ? [of(schema.items)] : [];
    case "string":
      return (schema.format && BY_FORMAT[schema.format]) ?? "string";
    case "integer":
    case "number": {
      if (schema.minimum !== undefined) return schema.minimum;
      if (schema.exclusiveMinimum !== undefined) return Math.floor(schema.exclusiveMinimum) + 1;
      return schema.maximum !== undefined ? Math.min(1, schema.maximum) : 1;
    }
    case "boolean":
      return true;
    default:
      return null;
  }
}

/**
 * The example to show for a body: the media type's own (`example`, or the first of
 * `examples`), else its schema's (through a `$ref`), else one generated from the schema. None
 * for a body that is not JSON-like (a binary PDF) or has no schema.
 */
export function exampleOf(
  media: Media,
  components: Components,
): { value: unknown; source: ExampleSource } | undefined {
  if (media.example !== undefined) return { value: media.example, source: "media" };
  const named = Object.values(media.examples ?? {}).find((e) => e.value !== undefined);
  if (named) return { value: named.value, source: "media" };
  if (!media.schema) return undefined;
  const { schema } = resolve(media.schema, components);
  const example = own(schema);
  if (example) return { value: example.value, source: "schema" };
  if (schema.format === "binary") return undefined;
  return { value: exampleFromSchema(schema, components), source: "generated" };
}
