type WellFormed = string & { isWellFormed(): boolean };

/**
 * The path of the first string (value or key) in a parsed JSON body that holds an unpaired
 * UTF-16 surrogate (`"\ud83d"`: half an emoji), or null. JSON allows such escapes, but they are
 * not text: Postgres would store U+FFFD in their place (or refuse them in jsonb), so the value
 * stored would differ from the value sent. Depth is bounded by the caller (MAX_JSON_DEPTH).
 *
 * @example
 * findUnpairedSurrogate({ items: [{ name: "a\ud83dz" }] }); // ["items", 0, "name"]
 */
export function findUnpairedSurrogate(
  value: unknown,
  path: (string | number)[] = [],
): (string | number)[] | null {
  if (typeof value === "string") return (value as WellFormed).isWellFormed() ? null : path;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findUnpairedSurrogate(item, [...path, i]);
      if (found) return found;
    }
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (!(key as WellFormed).isWellFormed()) return [...path, key];
      const found = findUnpairedSurrogate(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
