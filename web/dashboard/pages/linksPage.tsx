import type { LinkListRow } from "../../../app/lists/merchantLists.ts";
import { formatAmountForDisplay } from "../../../domain/money.ts";
import { receivedInOwnUnit } from "../../../domain/moneyRules.ts";
import { Badge, DashboardLayout, Time } from "../layout.tsx";
import { DataTable } from "./dataTable.tsx";
import { Pager, type PagerLinks } from "./pager.tsx";
import type { Session } from "./pageSession.ts";
import { usdc } from "./usdc.ts";

/** What a link received, in its unit; priced in a currency, with the USDC that arrived beside. */
function LinkReceived(props: { link: LinkListRow }) {
  const { link } = props;
  const received = receivedInOwnUnit(link.currency, {
    received: link.received,
    receivedInCurrency: link.received_in_currency,
  });
  if (link.currency === "USDC") return <>{usdc(received)}</>;
  // One span: a phone's stacked row keeps the two units together.
  return (
    <span>
      {formatAmountForDisplay(received, link.currency)}{" "}
      <span class="muted small" data-figure="received-usdc">
        ({usdc(link.received)})
      </span>
    </span>
  );
}

export function LinksPage(props: { session: Session; links: LinkListRow[]; pager: PagerLinks }) {
  return (
    <DashboardLayout title="Payment links" section="/dashboard/links" {...props.session}>
      <p>
        <a class="button" href="/dashboard/links/new">
          New payment link
        </a>
      </p>
      <section class="card">
        <DataTable
          rows={props.links}
          empty="No payment links yet."
          caption="Your payment links, newest first"
          columns={[
            {
              label: "Description",
              href: (link) => `/dashboard/links/${link.slug}`,
              cell: (link) => link.description,
            },
            { label: "Created", cell: (link) => <Time at={link.created_at} /> },
            { label: "Status", cell: (link) => <Badge status={link.status} /> },
            // Amount and received in the link's currency (the USDC that arrived beside it, as
            // the API's list gives paid_amount_usdc); refunds always move USDC.
            {
              label: "Amount",
              num: true,
              cell: (link) => formatAmountForDisplay(link.amount, link.currency),
            },
            { label: "Received", num: true, cell: (link) => <LinkReceived link={link} /> },
            { label: "Refunded", num: true, cell: (link) => usdc(link.refunded) },
          ]}
        />
        <Pager base="/dashboard/links" query={{}} links={props.pager} />
      </section>
    </DashboardLayout>
  );
}
