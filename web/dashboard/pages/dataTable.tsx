import type { Child } from "hono/jsx";

/** One column of a DataTable: its header, and what each row shows in it. */
export type Column<Row> = {
  /** The header's text, and each cell's `data-label` (a phone stacks a row under these). */
  label: string;
  /** A figure: the header and the cells get `class="num"` (aligned right). */
  num?: boolean;
  cell: (row: Row) => Child;
  /** The row's own page: each cell a link there (`class` of the link: `linkClass`). */
  href?: (row: Row) => string;
  linkClass?: string;
};

/**
 * A dashboard list as a responsive table (`.tablewrap` > `table.responsive`): a header cell a
 * column, a row an item, each cell labelled with its column's header for the phone layout. With
 * `empty`, no rows show that text instead of an empty table.
 */
export function DataTable<Row>(props: {
  rows: Row[];
  columns: Column<Row>[];
  /** The caption's text; none when a heading outside labels the table (`labelledBy`). */
  caption?: string;
  /** The caption's class, e.g. "sr-only" when the card's heading already says it on screen. */
  captionClass?: string;
  /** The id of the heading that names the table, instead of a caption. */
  labelledBy?: string;
  /** The row's own attributes (e.g. `data-delivery`: what the tests and scripts find it by). */
  rowAttributes?: (row: Row) => Record<string, string>;
  /** What a list without rows says (in a muted paragraph); none: the table shows, empty. */
  empty?: string;
  /** A `<tfoot>` after the rows (a total). */
  foot?: Child;
}) {
  if (props.empty !== undefined && props.rows.length === 0)
    return <p class="muted">{props.empty}</p>;
  const num = (column: Column<Row>) => (column.num ? "num" : undefined);
  const content = (column: Column<Row>, row: Row) =>
    column.href ? (
      <a class={column.linkClass} href={column.href(row)}>
        {column.cell(row)}
      </a>
    ) : (
      column.cell(row)
    );
  return (
    <div class="tablewrap">
      <table class="responsive" aria-labelledby={props.labelledBy}>
        {props.caption !== undefined && (
          <caption class={props.captionClass}>{props.caption}</caption>
        )}
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col" class={num(column)}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr {...props.rowAttributes?.(row)}>
              {props.columns.map((column) => (
                <td data-label={column.label} class={num(column)}>
                  {content(column, row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        {props.foot}
      </table>
    </div>
  );
}
