import Ajv2020, { type ErrorObject } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/** The parts of an OpenAPI 3.1 document that say what a route answers. */
export type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
};
type Operation = { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };

/** A response as checked: which route and status, and its body (parsed JSON, or the bytes). */
export type CheckedResponse = { key: string; status: number; body: unknown };

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * Every object schema that lists `properties` but says nothing of others refuses them: the
 * document does not promise extra fields, so a response carrying one has drifted from it.
 * Works on (and returns) a copy.
 */
export function closeObjectSchemas<T>(document: T): T {
  const copy = structuredClone(document);
  const close = (schema: unknown): void => {
    if (schema === null || typeof schema !== "object") return;
    const node = schema as Record<string, unknown>;
    if (node.properties && node.additionalProperties === undefined)
      node.additionalProperties = false;
    for (const sub of Object.values((node.properties as object | undefined) ?? {})) close(sub);
    for (const key of ["items", "additionalProperties", "not", "if", "then", "else"])
      close(node[key]);
    for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"])
      for (const sub of (node[key] as unknown[] | undefined) ?? []) close(sub);
  };
  const doc = copy as OpenApiDocument;
  for (const schema of Object.values(doc.components?.schemas ?? {})) close(schema);
  for (const item of Object.values(doc.paths))
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      for (const response of Object.values(operation.responses))
        for (const media of Object.values(response.content ?? {})) close(media.schema);
    }
  return copy;
}

/** `#/paths/~1api~1invoices~1%7Bid%7D/get/…`: a JSON pointer as a URI fragment. */
const pointer = (segments: string[]) =>
  `#/${segments.map((s) => encodeURIComponent(s.replace(/~/g, "~0").replace(/\//g, "~1"))).join("/")}`;

const describeErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? [])
    .map((e) => `${e.instancePath || "(body)"} ${e.message ?? ""} ${JSON.stringify(e.params)}`)
    .join("\n  ");

/**
 * Checks real responses against a published OpenAPI 3.1 document (its objects closed, see
 * closeObjectSchemas): the status must be one the operation documents, the media type one it
 * documents for that status, and a JSON body must validate against the schema given for it.
 * Remembers every route and status it checked, to compare with what the document lists.
 *
 * @example
 * const api = openApiChecker(await (await fetch(`${url}/openapi.json`)).json());
 * await api.check("get", "/api/invoices/{id}", await fetch(`${url}/api/invoices/${id}`));
 */
export function openApiChecker(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat("binary", true);
  ajv.addSchema(closeObjectSchemas(document), "openapi.json");
  const exercised = new Set<string>();

  return {
    /** Throws, naming every mismatch, unless `response` is one the document describes. */
    async check(method: string, path: string, response: Response): Promise<CheckedResponse> {
      const key = `${method.toUpperCase()} ${path} ${response.status}`;
      const operation = document.paths[path]?.[method];
      if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
      const documented = operation.responses[String(response.status)];
      if (!documented)
        throw new Error(
          `${key}: the document lists only ${Object.keys(operation.responses).join(", ")}`,
        );
      const mediaType = (response.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
      const media = documented.content?.[mediaType];
      if (!media)
        throw new Error(
          `${key}: answered ${mediaType || "no content type"}, documented ${Object.keys(documented.content ?? {}).join(", ") || "no body"}`,
        );
      if (!mediaType.endsWith("json")) {
        exercised.add(key);
        return { key, status: response.status, body: new Uint8Array(await response.arrayBuffer()) };
      }
      const body: unknown = await response.json();
      const validate = ajv.getSchema(
        `openapi.json${pointer(["paths", path, method, "responses", String(response.status), "content", mediaType, "schema"])}`,
      );
      if (!validate) throw new Error(`${key}: no schema for ${mediaType}`);
      if (!validate(body))
        throw new Error(
          `${key}: the body does not match the document:\n  ${describeErrors(validate.errors)}\nbody: ${JSON.stringify(body)}`,
        );
      exercised.add(key);
      return { key, status: response.status, body };
    },

    /** Every `METHOD path status` the document lists. */
    documented(): string[] {
      return Object.entries(document.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => METHODS.includes(method))
          .flatMap(([method, operation]) =>
            Object.keys(operation.responses).map(
              (status) => `${method.toUpperCase()} ${path} ${status}`,
            ),
          ),
      );
    },

    /** Every `METHOD path status` checked so far. */
    exercised: (): string[] => [...exercised],
  };
}
