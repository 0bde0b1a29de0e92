/**
 * A small XML writer for the e-invoices: elements as nested arrays, text escaped, and nothing
 * written for an absent value (Peppol refuses empty elements, PEPPOL-EN16931-R008).
 */

/** An element: its name, its attributes, and its children (text, or elements); null writes nothing. */
export type XmlNode = string | XmlElement | null | undefined | false;
export type XmlElement = {
  name: string;
  attributes?: Record<string, string | undefined>;
  children: XmlNode[];
  /** Written as `<name/>` when it has no children, instead of being left out. */
  required?: boolean;
};

/** An element; a child that is null, undefined or false is left out. */
export function el(
  name: string,
  attributesOrChild?: Record<string, string | undefined> | XmlNode,
  ...children: XmlNode[]
): XmlElement {
  const isAttributes =
    typeof attributesOrChild === "object" &&
    attributesOrChild !== null &&
    !("children" in attributesOrChild);
  return isAttributes
    ? { name, attributes: attributesOrChild as Record<string, string>, children }
    : { name, children: [attributesOrChild as XmlNode, ...children] };
}

/** An element holding one text value, or nothing at all when the value is absent or empty. */
export function text(
  name: string,
  value: string | null | undefined,
  attributes?: Record<string, string | undefined>,
): XmlElement | null {
  if (value === null || value === undefined || value.trim() === "") return null;
  return { name, attributes, children: [value] };
}

/** An element the schema requires even when it holds nothing (CII's header delivery). */
export function required(element: XmlElement): XmlElement {
  return { ...element, required: true };
}

const escapeXml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The element written out with two-space indentation. An element whose children all came to
 * nothing is left out too (never an empty element).
 */
export function serialize(root: XmlElement): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${write(root, "")}\n`;
}

function write(node: XmlElement, indent: string): string {
  const attributes = Object.entries(node.attributes ?? {})
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXml(value)}"`)
    .join("");
  const children = node.children.filter(
    (child): child is string | XmlElement =>
      child !== null && child !== undefined && child !== false,
  );
  if (children.length === 1 && typeof children[0] === "string")
    return `${indent}<${node.name}${attributes}>${escapeXml(children[0])}</${node.name}>`;
  const inner = children
    .map((child) =>
      typeof child === "string" ? `${indent}  ${escapeXml(child)}` : write(child, `${indent}  `),
    )
    .filter((line) => line !== "");
  if (inner.length === 0) return node.required ? `${indent}<${node.name}${attributes}/>` : "";
  return `${indent}<${node.name}${attributes}>\n${inner.join("\n")}\n${indent}</${node.name}>`;
}
