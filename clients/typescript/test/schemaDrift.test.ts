import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import {
  clientSchemaSource,
  currentDocument,
  schemaFile,
} from "../../../scripts/generate-client.ts";

describe("the client's generated types", () => {
  test("are what the current /openapi.json generates (else run `npm run client:generate`)", async () => {
    const committed = await readFile(schemaFile, "utf8");
    const fresh = await clientSchemaSource();
    if (fresh !== committed)
      throw new Error(
        "clients/typescript/src/schema.ts has drifted from the API's OpenAPI document: run `npm run client:generate` and commit the result",
      );
  });

  test("follow the document: a changed schema changes them", async () => {
    const document = await currentDocument();
    const invoice = document.components?.schemas?.Invoice as {
      properties: Record<string, unknown>;
    };
    invoice.properties.drifted_field = { type: "string" };
    const changed = await clientSchemaSource(document);
    expect(changed).not.toBe(await readFile(schemaFile, "utf8"));
    expect(changed).toContain("drifted_field?: string;");
  });
});
