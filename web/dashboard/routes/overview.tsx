import { merchantOverview } from "../../../app/dashboard/overview.ts";
import { utcToday } from "../../../domain/invoiceStatus.ts";
import { OverviewPage } from "../pages/overviewPage.tsx";
import { actorOf, type SignedInRoutes, session } from "./shared.tsx";

/** `/dashboard`: this month's money and the newest payments. */
export const registerOverview: SignedInRoutes = (app, deps) => {
  app.get("/", async (c) => {
    const { overview, recent } = await merchantOverview(deps, actorOf(c), utcToday(), 5);
    return c.html(
      <OverviewPage
        session={session(c)}
        overview={overview}
        recent={recent}
        explorerUrl={deps.explorerUrl}
      />,
    );
  });
};
