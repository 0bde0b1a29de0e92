import { paymentList } from "../../../app/lists/merchantLists.ts";
import { PaymentsPage } from "../pages/paymentsPage.tsx";
import { readList, type SignedInRoutes } from "./shared.tsx";

/** `/dashboard/payments`: every payment in, newest first. */
export const registerPayments: SignedInRoutes = (app, deps) => {
  app.get("/payments", async (c) => {
    const list = await readList(c, "payments", (actor, page) => paymentList(deps, actor, {}, page));
    return c.html(
      <PaymentsPage
        session={list.session}
        payments={list.rows}
        pager={list.pager}
        explorerUrl={deps.explorerUrl}
      />,
    );
  });
};
