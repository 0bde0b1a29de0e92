import type { LinkListRow } from "../../../app/lists/merchantLists.ts";
import { Badge, DashboardLayout, Time } from "../layout.tsx";
import { DataTable } from "./dataTable.tsx";
import { Pager, type PagerLinks } from "./pager.tsx";
import type { Session } from "./pageSession.ts";
import { usdc } from "./usdc.ts";

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
            { label: "Amount", num: true, cell: (link) => usdc(link.amount) },
            { label: "Received", num: true, cell: (link) => usdc(link.received) },
            { label: "Refunded", num: true, cell: (link) => usdc(link.refunded) },
          ]}
        />
        <Pager base="/dashboard/links" query={{}} links={props.pager} />
      </section>
    </DashboardLayout>
  );
}
