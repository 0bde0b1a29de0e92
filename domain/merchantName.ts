/**
 * The form in which a merchant's registered name is reserved: Unicode-compatibility folded
 * (NFKC: full-width and styled letters become plain ones), lower-cased, and only letters and
 * digits kept, so "ACME  Corp.", "Acme Corp" and "ａｃｍｅ ｃｏｒｐ" are one name. Lookalikes from
 * other scripts (a Cyrillic "а") are not folded: see docs/api.md, "Merchant accounts".
 *
 * @example merchantNameKey("Acme, Corp.") // "acmecorp"
 */
export function merchantNameKey(name: string): string {
  return name
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
}
