import type { Child } from "hono/jsx";
import type { LineItemRow } from "../../app/pages/hostedPages.ts";
import { formatUsdcForDisplay } from "../../domain/money.ts";

/**
 * An invoice's lines as the hosted pages show them, in their "Items" card: with quantity and unit
 * price (`detailed`, the invoice page) or as amounts alone (a void invoice's page), then the
 * rows the page adds below them (its totals, which span the columns before the amount).
 */
export function LineItemsTable(props: {
  lines: readonly LineItemRow[];
  detailed: boolean;
  children: Child;
}) {
  return (
    <table>
      <thead>
        <tr>
          <th>Description</th>
          {props.detailed ? (
            <>
              <th class="num">Qty</th>
              <th class="num">Unit price</th>
            </>
          ) : null}
          <th class="num">Amount</th>
        </tr>
      </thead>
      <tbody>
        {props.lines.map((line) => (
          <tr>
            <td>{line.description}</td>
            {props.detailed ? (
              <>
                <td class="num">{line.quantity}</td>
                <td class="num">{formatUsdcForDisplay(line.unit_price)}</td>
              </>
            ) : null}
            <td class="num">{formatUsdcForDisplay(line.line_total)}</td>
          </tr>
        ))}
        {props.children}
      </tbody>
    </table>
  );
}
