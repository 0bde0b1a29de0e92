import type { Components, Media, OperationEntry, Parameter } from "./apiDocument.ts";
import { exampleOf } from "./exampleOf.ts";
import {
  type Constraint,
  constraintsOf,
  type FieldRow,
  fieldRows,
  typeLabel,
} from "./fieldRows.ts";
import { escapeHtml, inline, preBlock, prettyJson } from "./markup.ts";

/** The anchor of an operation: its operationId, else `post-api-invoices-id-send`. */
export const operationAnchor = ({ method, path, operation }: OperationEntry): string =>
  operation.operationId ??
  `${method}-${path}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

const JSON_TYPE = /^application\/(.+\+)?json$/;

/** The media type to show of a body: JSON when there is one, else the first. */
const pick = (content: Record<string, Media> | undefined): [string, Media] | undefined => {
  const entries = Object.entries(content ?? {});
  return entries.find(([type]) => JSON_TYPE.test(type)) ?? entries[0];
};

const constraintHtml = ({ text, values }: Constraint) =>
  `<li>${escapeHtml(text)}${values ? ` ${values.map((v) => `<code>${escapeHtml(v)}</code>`).join(", ")}` : ""}</li>`;

/** `line_items[].unit_price`, the path to the field dimmed and the field's own name bold. */
const nameHtml = (name: string) => {
  const parent = name.slice(0, name.lastIndexOf(".") + 1);
  return `<code class="name">${parent ? `<span class="parent">${escapeHtml(parent)}</span>` : ""}<b>${escapeHtml(name.slice(parent.length))}</b></code>`;
};

type Row = FieldRow & { location?: string };

/** What a field's presence is called: a request's must be sent, a response's may be absent. */
const presence = (row: Row, side: "request" | "response") => {
  if (side === "response") return row.required ? "" : ` <span class="opt">optional</span>`;
  return row.required ? ` <span class="req">required</span>` : ` <span class="opt">optional</span>`;
};

/** Rows as a table of name (required or not), type, and description with the rules. */
function fieldTable(rows: Row[], caption: string, side: "request" | "response"): string {
  const body = rows
    .map(
      (row) =>
        `<tr><th scope="row">${nameHtml(row.name)}${row.location ? ` <span class="in">${escapeHtml(row.location)}</span>` : ""}` +
        `${presence(row, side)}</th>` +
        `<td class="type">${escapeHtml(row.type)}</td>` +
        `<td>${row.description ? `<p>${inline(row.description)}</p>` : ""}` +
        `${row.constraints.length ? `<ul class="rules">${row.constraints.map(constraintHtml).join("")}</ul>` : ""}</td></tr>`,
    )
    .join("\n");
  return `<table class="fields"><caption>${escapeHtml(caption)}</caption><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead>\n<tbody>\n${body}\n</tbody></table>`;
}

const parameterRow = (parameter: Parameter, components: Components): Row => {
  const schema = parameter.schema ?? {};
  const description = parameter.description ?? schema.description;
  return {
    name: parameter.name ?? "",
    location: parameter.in ?? "",
    type: typeLabel(schema, components),
    required: parameter.required === true,
    constraints: constraintsOf(schema, components),
    ...(description === undefined ? {} : { description }),
  };
};

/** A body's media type, then its fields (or what it is, when not an object). */
function bodyHtml(
  content: Record<string, Media> | undefined,
  caption: string,
  side: "request" | "response",
  components: Components,
) {
  const chosen = pick(content);
  if (!chosen) return `<p class="media">No body.</p>`;
  const [type, media] = chosen;
  const rows = media.schema ? fieldRows(media.schema, components) : [];
  const what =
    media.schema && !rows.length ? `: ${escapeHtml(typeLabel(media.schema, components))}` : "";
  return `<p class="media">Body <code>${escapeHtml(type)}</code>${what}</p>${rows.length ? fieldTable(rows, caption, side) : ""}`;
}

const headerName = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash, c: string) => dash + c.toUpperCase());

/** The example request: its line (path parameters filled in), headers, and JSON body. */
function exampleRequest({ method, path, operation }: OperationEntry, components: Components) {
  const parameters = operation.parameters ?? [];
  const exampleFor = (p: Parameter) => p.example ?? p.schema?.example;
  const url = path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const value = exampleFor(parameters.find((p) => p.in === "path" && p.name === name) ?? {});
    return value === undefined ? whole : encodeURIComponent(String(value));
  });
  const query = parameters
    .filter((p) => p.in === "query" && exampleFor(p) !== undefined)
    .map((p) => `${encodeURIComponent(p.name ?? "")}=${encodeURIComponent(String(exampleFor(p)))}`);
  const lines = [`${method.toUpperCase()} ${url}${query.length ? `?${query.join("&")}` : ""}`];
  for (const p of parameters)
    if (p.in === "header" && exampleFor(p) !== undefined)
      lines.push(`${headerName(p.name ?? "")}: ${String(exampleFor(p))}`);
  const body = pick(operation.requestBody?.content);
  const example = body && exampleOf(body[1], components);
  if (body && example) lines.push(`Content-Type: ${body[0]}`, "", prettyJson(example.value));
  return preBlock(`Example request: ${method.toUpperCase()} ${path}`, lines.join("\n"));
}

/** The example answer of the first success status: its JSON body, or what the body is. */
function exampleResponse({ method, path, operation }: OperationEntry, components: Components) {
  const [status, response] =
    Object.entries(operation.responses ?? {}).find(([code]) => /^2/.test(code)) ?? [];
  if (!status || !response) return "";
  const body = pick(response.content);
  const example = body && exampleOf(body[1], components);
  const label = `<p class="exlabel">Response <span class="status s2">${escapeHtml(status)}</span>${body && !example ? ` <code>${escapeHtml(body[0])}</code>: the file's bytes.` : ""}</p>`;
  return example
    ? `${label}${preBlock(`Example response ${status}: ${method.toUpperCase()} ${path}`, prettyJson(example.value))}`
    : label;
}

/**
 * One operation as a section: method and path, summary and description, its parameters, its
 * request body's fields, each response with its body's fields (errors folded), and an example
 * request and success response.
 */
export function renderOperation(entry: OperationEntry, components: Components): string {
  const { method, path, operation } = entry;
  const id = escapeHtml(operationAnchor(entry));
  const parameters = operation.parameters ?? [];
  const responses = Object.entries(operation.responses ?? {}).map(([status, response]) => {
    const head = `<span class="status s${escapeHtml(status.charAt(0))}">${escapeHtml(status)}</span> ${inline(response.description ?? "")}`;
    const body = bodyHtml(response.content, `Response ${status} fields`, "response", components);
    return /^2/.test(status)
      ? `<div class="response"><h5>${head}</h5>${body}</div>`
      : `<details class="response"><summary>${head}</summary>${body}</details>`;
  });
  return `<section class="op" id="${id}" aria-labelledby="${id}-title">
<h3 id="${id}-title"><span class="m m-${method}">${method.toUpperCase()}</span> <code class="path">${escapeHtml(path)}</code></h3>
${operation.summary ? `<p class="summary">${inline(operation.summary)}</p>` : ""}
${operation.description ? `<p>${inline(operation.description)}</p>` : ""}
${
  parameters.length
    ? `<h4>Parameters</h4>${fieldTable(
        parameters.map((p) => parameterRow(p, components)),
        "Parameters",
        "request",
      )}`
    : ""
}
${operation.requestBody ? `<h4>Request body${operation.requestBody.required ? "" : " (optional)"}</h4>${operation.requestBody.description ? `<p>${inline(operation.requestBody.description)}</p>` : ""}${bodyHtml(operation.requestBody.content, "Request body fields", "request", components)}` : ""}
<h4>Responses</h4>
${responses.join("\n")}
<h4>Example</h4>
<p class="exlabel">Request</p>
${exampleRequest(entry, components)}
${exampleResponse(entry, components)}
<p class="top"><a href="#contents">Back to the contents</a></p>
</section>`;
}
