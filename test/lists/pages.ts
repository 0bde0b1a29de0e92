import { bearer } from "../accounts/accounts.ts";
import type { TestStack } from "../helpers/stack.ts";

type Json = Record<string, unknown>;

/** One page of a list through the API: status, rows and next cursor. */
export async function getPage(
  stack: TestStack,
  key: string,
  path: string,
): Promise<{ status: number; data: Json[]; next: string | null; body: Json }> {
  const response = await stack.request(path, { headers: bearer(key) });
  const body = (await response.json()) as Json;
  return {
    status: response.status,
    data: (body.data as Json[] | undefined) ?? [],
    next: (body.next_cursor as string | null | undefined) ?? null,
    body,
  };
}

/** Every row of a list, following next_cursor; `between` runs after each page. */
export async function walkList(
  stack: TestStack,
  key: string,
  path: string,
  between: () => Promise<void> = async () => {},
): Promise<Json[]> {
  const rows: Json[] = [];
  const join = path.includes("?") ? "&" : "?";
  let cursor: string | null = null;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await getPage(
      stack,
      key,
      cursor ? `${path}${join}cursor=${encodeURIComponent(cursor)}` : path,
    );
    if (page.status !== 200)
      throw new Error(`${path}: ${page.status} ${JSON.stringify(page.body)}`);
    rows.push(...page.data);
    cursor = page.next;
    if (!cursor) return rows;
    await between();
  }
  throw new Error(`${path}: no last page`);
}

/** The `error.fields` of a 400, as `path:code` strings. */
export const fieldCodes = (body: Json): string[] =>
  (((body.error as Json | undefined)?.fields as Json[] | undefined) ?? []).map(
    (f) => `${f.path}:${f.code}`,
  );
