/**
 * The file name a `Content-Disposition` header gives (`attachment; filename="INV-0001-ubl.xml"`),
 * made safe to write in the current directory: no directory part, only letters, digits, `.`,
 * `_` and `-`, never hidden. Undefined when the header names nothing usable.
 *
 * @example contentDispositionName('attachment; filename="CN-0001-ubl.xml"') // "CN-0001-ubl.xml"
 * @example contentDispositionName('inline; filename="../../.bashrc"') // "bashrc"
 */
export function contentDispositionName(header: string | undefined): string | undefined {
  const quoted = /filename="([^"]*)"/i.exec(header ?? "")?.[1];
  const bare = /filename=([^";\s]+)/i.exec(header ?? "")?.[1];
  const name = (quoted ?? bare ?? "")
    .split(/[\\/]/)
    .pop()
    ?.replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "");
  return name ? name : undefined;
}
