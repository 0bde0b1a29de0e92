import { type Components, type JsonSchema, resolve, withoutNull } from "./apiDocument.ts";

/** A rule a value must follow, as shown: words, then values shown as code (one of "a", "b"). */
export type Constraint = { text: string; values?: string[] };

/** One field of a body, nested fields flattened into paths. */
export type FieldRow = {
  /** Where the field is: `amount`, `line_items[].unit_price`, `metadata.{key}`. */
  name: string;
  /** `string (email)`, `array of object`, `string | null`, … */
  type: string;
  required: boolean;
  constraints: Constraint[];
  description?: string;
};

/** Deeper than any body of ours; a guard against a schema that nests without end. */
const MAX_DEPTH = 10;

type Seen = ReadonlySet<string>;

/** A schema as it matters to a reader: `$ref`s followed, a nullable wrapper and `allOf` undone. */
function look(input: JsonSchema, components: Components, seen: Seen) {
  const outer = resolve(input, components, seen);
  const { schema: unwrapped, nullable } = withoutNull(outer.schema);
  const inner = nullable ? resolve(unwrapped, components, outer.seen) : outer;
  if (!inner.schema.allOf) return { schema: inner.schema, nullable, seen: inner.seen };
  // Every part's keywords, the schema's own winning; properties and required lists combined.
  const { allOf, ...own } = inner.schema;
  const parts = [...allOf.map((part) => resolve(part, components, inner.seen).schema), own];
  const objects = parts.filter((part) => part.properties);
  const schema: JsonSchema = Object.assign(
    {},
    ...parts,
    objects.length
      ? {
          properties: Object.assign({}, ...objects.map((part) => part.properties)),
          required: parts.flatMap((part) => part.required ?? []),
        }
      : {},
  );
  return { schema, nullable, seen: inner.seen };
}

const isObject = (schema: JsonSchema) =>
  schema.properties !== undefined || typeof schema.additionalProperties === "object";

/** The JSON types a schema allows, read from `type` or, without one, from its other keywords. */
function typesOf(schema: JsonSchema): string[] {
  if (schema.type !== undefined) return Array.isArray(schema.type) ? schema.type : [schema.type];
  if (isObject(schema)) return ["object"];
  if (schema.items) return ["array"];
  const values = schema.const !== undefined ? [schema.const] : (schema.enum ?? []);
  return [...new Set(values.map((v) => (v === null ? "null" : typeof v)))];
}

/**
 * How a reader would name the type of `input`: `string (uuid)`, `array of object`,
 * `string | null`, `any` when the schema says nothing.
 *
 * @example
 * typeLabel({ type: "array", items: { type: "string", format: "uri" } }, {}) // "array of string (uri)"
 */
export function typeLabel(
  input: JsonSchema,
  components: Components,
  seen: Seen = new Set(),
): string {
  const { schema, nullable, seen: inner } = look(input, components, seen);
  const members = schema.anyOf ?? schema.oneOf;
  const labels = members
    ? members.map((member) => typeLabel(member, components, inner))
    : typesOf(schema).map((type) => {
        if (type === "array") {
          const items = schema.items ? typeLabel(schema.items, components, inner) : "any";
          return `array of ${items.includes(" | ") ? `(${items})` : items}`;
        }
        if (type === "string" && schema.format === "binary") return "binary";
        if (type === "string" && schema.format) return `string (${schema.format})`;
        return type;
      });
  if (nullable) labels.push("null");
  const unique = [...new Set(labels.flatMap((label) => label.split(" | ")))];
  return unique.length === 0 ? "any" : unique.join(" | ");
}

/** Every value an `enum` or `const` allows, across the members of an `anyOf`/`oneOf`. */
function allowedValues(
  schema: JsonSchema,
  components: Components,
  seen: Seen,
): unknown[] | undefined {
  if (schema.const !== undefined) return [schema.const];
  if (schema.enum) return schema.enum;
  const members = schema.anyOf ?? schema.oneOf;
  if (!members) return undefined;
  const each = members.map((m) =>
    allowedValues(look(m, components, seen).schema, components, seen),
  );
  if (each.some((values) => values === undefined)) return undefined;
  return [...new Set(each.flat())];
}

const range = (units: string, min: number | undefined, max: number | undefined): Constraint[] => {
  const count = (n: number) => `${n} ${n === 1 ? units.slice(0, -1) : units}`;
  if (min !== undefined && max !== undefined)
    return [{ text: min === max ? `exactly ${count(min)}` : `${min}–${count(max)}` }];
  if (min !== undefined) return [{ text: `at least ${count(min)}` }];
  if (max !== undefined) return [{ text: `at most ${count(max)}` }];
  return [];
};

/**
 * The rules `input` sets on a value, in words: lengths, bounds, counts, the allowed values, a
 * pattern, a default; an array of plain values also gets its items' rules ("each: …").
 *
 * @example
 * constraintsOf({ type: "string", minLength: 1, maxLength: 200 }, {}) // [{ text: "1–200 characters" }]
 */
export function constraintsOf(
  input: JsonSchema,
  components: Components,
  seen: Seen = new Set(),
): Constraint[] {
  const { schema, seen: inner } = look(input, components, seen);
  const json = (value: unknown) => JSON.stringify(value) ?? String(value);
  const values = allowedValues(schema, components, inner);
  const bound = (text: string, value: number | undefined) =>
    value === undefined ? [] : [{ text: `${text} ${value}` }];
  const constraints: Constraint[] = [
    ...(values
      ? [{ text: values.length === 1 ? "always" : "one of", values: values.map(json) }]
      : []),
    ...range("characters", schema.minLength, schema.maxLength),
    ...bound(">", schema.exclusiveMinimum),
    ...bound("≥", schema.minimum),
    ...bound("<", schema.exclusiveMaximum),
    ...bound("≤", schema.maximum),
    ...bound("a multiple of", schema.multipleOf),
    ...range("items", schema.minItems, schema.maxItems),
    ...(schema.uniqueItems ? [{ text: "no duplicates" }] : []),
    ...range("keys", schema.minProperties, schema.maxProperties),
    ...(schema.pattern !== undefined ? [{ text: "pattern", values: [schema.pattern] }] : []),
    ...(schema.default !== undefined ? [{ text: "default", values: [json(schema.default)] }] : []),
  ];
  if (schema.items && !isObject(look(schema.items, components, inner).schema)) {
    for (const rule of constraintsOf(schema.items, components, inner))
      constraints.push({ ...rule, text: `each: ${rule.text}` });
  }
  return constraints;
}

/**
 * The fields of a body's schema as rows, nested objects and arrays of objects flattened into
 * paths (`line_items[].unit_price`), `$ref`s into `components` resolved, each with its type,
 * whether it is required, its rules and its description. A body that is not an object (a PDF)
 * has no rows.
 */
export function fieldRows(schema: JsonSchema, components: Components): FieldRow[] {
  const rows: FieldRow[] = [];

  const fieldsOf = (object: JsonSchema, prefix: string, seen: Seen, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    const required = new Set(object.required ?? []);
    for (const [key, property] of Object.entries(object.properties ?? {}))
      field(`${prefix}${key}`, property, required.has(key), seen, depth);
    if (typeof object.additionalProperties === "object")
      field(`${prefix}{key}`, object.additionalProperties, false, seen, depth);
  };

  const field = (
    name: string,
    property: JsonSchema,
    required: boolean,
    seen: Seen,
    depth: number,
  ) => {
    const looked = look(property, components, seen);
    rows.push({
      name,
      type: typeLabel(property, components, seen),
      required,
      constraints: constraintsOf(property, components, seen),
      ...(looked.schema.description === undefined
        ? {}
        : { description: looked.schema.description }),
    });
    inside(looked.schema, name, looked.seen, depth + 1);
  };

  /** The fields within a value: an object's, or those of an array's items (`name[].…`). */
  const inside = (schema: JsonSchema, name: string, seen: Seen, depth: number): void => {
    if (isObject(schema)) {
      fieldsOf(schema, name ? `${name}.` : "", seen, depth);
    } else if (schema.items) {
      const items = look(schema.items, components, seen);
      inside(items.schema, `${name}[]`, items.seen, depth);
    }
  };

  const top = look(schema, components, new Set());
  inside(top.schema, "", top.seen, 0);
  return rows;
}
