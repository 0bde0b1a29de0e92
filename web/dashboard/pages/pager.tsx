/** The query strings of the pages before and after the one shown (web/dashboard/paging.ts). */
export type PagerLinks = {
  older: Record<string, string> | null;
  newer: Record<string, string> | null;
};

/** Newer/older links (keyset cursors, as the API's lists) keeping the filters. */
export function Pager(props: { base: string; query: Record<string, string>; links: PagerLinks }) {
  const href = (page: Record<string, string>) => {
    const text = new URLSearchParams({ ...props.query, ...page }).toString();
    return text ? `${props.base}?${text}` : props.base;
  };
  const { older, newer } = props.links;
  if (!older && !newer) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {newer && <a href={href(newer)}>← Newer</a>}
      {older && <a href={href(older)}>Next →</a>}
    </nav>
  );
}
