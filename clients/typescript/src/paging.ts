import type { Page } from "./types.js";

/**
 * A paged list of the API: iterate it with `for await` for every element, page after page
 * (following `next_cursor` until it is null), or take it a page at a time with `pages()`.
 * Nothing is requested until it is iterated; each iteration starts again from the first page.
 */
export class PagedList<Item> implements AsyncIterable<Item> {
  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<Page<Item>>) {}

  /** Every page, the first one first. */
  async *pages(): AsyncGenerator<Page<Item>, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.fetchPage(cursor);
      yield page;
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** The first page alone (its `next_cursor` says whether there are more). */
  async firstPage(): Promise<Page<Item>> {
    return this.fetchPage(undefined);
  }

  /** Every element, at most `max` of them (default: all), in one array. */
  async toArray(max = Number.POSITIVE_INFINITY): Promise<Item[]> {
    const items: Item[] = [];
    if (max <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }
}
