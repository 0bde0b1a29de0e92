/**
 * The parts of an OpenAPI 3.1 document the reference page reads, as plain structural types: the
 * document the app generates is assignable to them, and the tests can hand-write one.
 */

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), or a `$ref` to one in `components.schemas`. */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
};

export type Components = Record<string, JsonSchema>;

/** A media type's body: its schema and, optionally, examples of its own. */
export type Media = {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value?: unknown; $ref?: string }>;
};

export type Parameter = {
  $ref?: string;
  name?: string;
  in?: string;
  description?: string;
  required?: boolean;
  schema?: JsonSchema;
  example?: unknown;
};

export type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  deprecated?: boolean;
  parameters?: Parameter[];
  requestBody?: {
    $ref?: string;
    description?: string;
    required?: boolean;
    content?: Record<string, Media>;
  };
  responses?: Record<
    string,
    { $ref?: string; description?: string; content?: Record<string, Media> }
  >;
};

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type Method = (typeof METHODS)[number];

export type ApiDocument = {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Partial<Record<Method, Operation>>>;
  components?: { schemas?: Components };
};

/** One operation of the document, with where it lives. */
export type OperationEntry = { method: Method; path: string; operation: Operation };

/** Every operation, in the document's order of paths and OpenAPI's order of methods. */
export function operationsOf(doc: ApiDocument): OperationEntry[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ method, path, operation }] : [];
    }),
  );
}

const REF = /^#\/components\/schemas\/(.+)$/;

/** The component name a `$ref` points at (`#/components/schemas/Invoice` → `Invoice`). */
const refName = (ref: string): string | undefined => {
  const name = REF.exec(ref)?.[1];
  return name === undefined
    ? undefined
    : decodeURIComponent(name.replace(/~1/g, "/").replace(/~0/g, "~"));
};

/**
 * The schema `schema` stands for: `$ref`s followed into `components` (keywords beside a `$ref`,
 * such as a description, win over the target's), with the name of the component it names.
 * A `$ref` already in `seen` (a recursive schema) or to nothing resolves to an empty schema.
 */
export function resolve(
  schema: JsonSchema,
  components: Components,
  seen: ReadonlySet<string> = new Set(),
): { schema: JsonSchema; name?: string; seen: ReadonlySet<string> } {
  if (schema.$ref === undefined) return { schema, seen };
  const { $ref, ...siblings } = schema;
  const name = refName($ref);
  const target = name === undefined ? undefined : components[name];
  if (name === undefined || target === undefined || seen.has(name))
    return { schema: siblings, ...(name === undefined ? {} : { name }), seen };
  const inner = resolve(target, components, new Set([...seen, name]));
  return { schema: { ...inner.schema, ...siblings }, name, seen: inner.seen };
}

/** `anyOf: [X, {type: "null"}]` (how a nullable `$ref` is written) split into X and nullability. */
export function withoutNull(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const members = schema.anyOf ?? schema.oneOf;
  if (!members) return { schema, nullable: false };
  const rest = members.filter((m) => m.type !== "null");
  if (rest.length !== 1 || rest.length === members.length) return { schema, nullable: false };
  const { anyOf: _anyOf, oneOf: _oneOf, ...siblings } = schema;
  return { schema: { ...(rest[0] as JsonSchema), ...siblings }, nullable: true };
}
