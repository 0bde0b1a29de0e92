/**
 * A moment as every page shows it: UTC, to the second, without the ISO `T` and `Z`
 * (`2026-11-23 18:42:29`). One format across the hosted pages; the API keeps ISO 8601.
 *
 * @example formatUtc(new Date("2026-11-23T18:42:29.123Z")) // "2026-11-23 18:42:29"
 */
export function formatUtc(moment: Date): string {
  return moment.toISOString().replace("T", " ").slice(0, 19);
}
