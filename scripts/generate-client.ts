// Regenerates the typed client's types (clients/typescript/src/schema.ts) from the OpenAPI
// document the API serves at /openapi.json: `npm run client:generate`. The document is built
// from the route schemas alone (no database, no chain), so this runs without a stack.
// clients/typescript/test/schemaDrift.test.ts fails when the committed file differs from what
// this would write now.
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from "openapi-typescript";
import { documentApp } from "../test/helpers/documentApp.ts";

/** Where the generated types live, committed. */
export const schemaFile = fileURLToPath(
  new URL("../clients/typescript/src/schema.ts", import.meta.url),
);

/** The API's current OpenAPI 3.1 document, exactly as `GET /openapi.json` serves it. */
export async function currentDocument(): Promise<OpenAPI3> {
  const response = await documentApp().request("/openapi.json");
  if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
  return (await response.json()) as OpenAPI3;
}

/** The source of schema.ts for `document`: deterministic, so a drift test can compare it. */
export async function clientSchemaSource(document?: OpenAPI3): Promise<string> {
  const ast = await openapiTS(document ?? (await currentDocument()), {
    silent: true,
    // The service never answers fields its document does not declare
    // (test/openapi/conformance.test.ts), and it refuses unknown request fields.
    additionalProperties: false,
    alphabetize: false,
  });
  return `${COMMENT_HEADER.replace(
    "Do not make direct changes to the file.",
    "Do not make direct changes to the file: run `npm run client:generate`.",
  )}${astToString(ast)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(schemaFile, await clientSchemaSource());
  console.log(`wrote ${schemaFile}`);
}
