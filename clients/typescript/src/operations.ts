import type { RequestOptions, Transport } from "./http.js";
import { PagedList } from "./paging.js";
import type { paths } from "./schema.js";
import type { ListItem, Page, QueryOf, RequestBody, SuccessBody } from "./types.js";

export type Method = "get" | "post" | "patch" | "delete";

export type OperationCall<Path extends keyof paths, M extends keyof paths[Path]> = {
  /** The values of the path's `{name}` parameters. */
  params?: Record<string, string>;
  query?: QueryOf<Path, M> | Record<string, unknown>;
  body?: RequestBody<Path, M>;
  idempotent?: boolean;
  options?: RequestOptions | undefined;
  headers?: Record<string, string> | undefined;
  answers?: readonly number[] | undefined;
};

/**
 * The calls every resource (resources/*.ts) is made of: an operation of the OpenAPI document by
 * method and path, typed by schema.ts, sent through the Transport (retries, deadlines, errors).
 * Internal: index.ts does not export it; `Remit` is the surface.
 */
export class Operations {
  constructor(readonly http: Transport) {}

  /** The request of the document's operation `method path`, answered with its success body. */
  operation<Path extends keyof paths, M extends Method & keyof paths[Path]>(
    method: M,
    path: Path,
    call: OperationCall<Path, M> = {},
  ): Promise<SuccessBody<Path, M>> {
    return this.http.json<SuccessBody<Path, M>>({ ...this.request(method, path, call) });
  }

  /** The successful answer of a route whose body is not JSON (a PDF, a CSV). */
  raw<Path extends keyof paths>(
    path: Path,
    call: OperationCall<Path, "get" & keyof paths[Path]> = {},
  ): Promise<Response> {
    return this.http.send(this.request("get", path, call));
  }

  /** The bytes of a route that answers with a file (a PDF, an e-invoice). */
  async bytes<Path extends keyof paths>(
    path: Path,
    call: OperationCall<Path, "get" & keyof paths[Path]> = {},
  ) {
    return new Uint8Array(await (await this.raw(path, call)).arrayBuffer());
  }

  request(method: Method, path: string, call: OperationCall<keyof paths, never>) {
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = call.params?.[name];
      if (value === undefined || value === "") throw new TypeError(`${name} is required`);
      return encodeURIComponent(value);
    });
    return {
      method: method.toUpperCase() as Uppercase<Method>,
      path: filled,
      query: call.query as Record<string, unknown> | undefined,
      body: call.body,
      idempotent: call.idempotent ?? false,
      options: call.options,
      headers: call.headers,
      answers: call.answers,
    };
  }

  list<Path extends keyof paths>(
    path: Path,
    filters: Record<string, unknown>,
    options: RequestOptions | undefined,
  ): PagedList<ListItem<Path>> {
    return new PagedList((cursor) =>
      this.http.json<Page<ListItem<Path>>>(
        this.request("get", path, { query: { ...filters, cursor }, options }),
      ),
    );
  }
}
