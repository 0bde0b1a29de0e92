import { ExportQuerySchema } from "../../../app/exports/csvStream.ts";
import { invoicesCsv } from "../../../app/exports/invoicesCsv.ts";
import { paymentsCsv } from "../../../app/exports/paymentsCsv.ts";
import { receivablesCsvResponse } from "../../../app/reports/receivables.ts";
import { PlainLayout } from "../layout.tsx";
import { attempt, validated } from "../refusals.ts";
import { actorOf, notFound, type SignedInRoutes } from "./shared.tsx";

/** The API's CSV exports, streamed under the session (the API itself takes keys only). */
export const registerExports: SignedInRoutes = (app, deps) => {
  app.get("/exports/:file", async (c) => {
    const file = c.req.param("file");
    if (file === "receivables.csv") {
      // The aged receivables report's CSV, byte for byte GET /api/exports/receivables.csv's.
      return receivablesCsvResponse(deps, actorOf(c), c.req.query("bom") !== "false");
    }
    const what = file === "invoices.csv" ? "invoices" : file === "payments.csv" ? "payments" : null;
    if (!what) return notFound(c, "export");
    const params = Object.fromEntries(
      ["from", "to", "bom"].flatMap((key) => {
        const value = c.req.query(key);
        return value === undefined ? [] : [[key, value]];
      }),
    );
    // Empty date fields of the dashboard's form mean "no bound", as an absent parameter.
    const given = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== ""));
    const query = validated(ExportQuerySchema, given, () => ["from", "to", "bom"]);
    const csv = what === "invoices" ? invoicesCsv : paymentsCsv;
    const outcome = query.ok
      ? await attempt(async () => ({
          response: await csv(deps, actorOf(c), given, query.data),
        }))
      : query;
    if (outcome.ok) return outcome.response;
    return c.html(
      <PlainLayout title="Export refused">
        <p role="alert">
          {Object.entries(outcome.fields)
            .map(([path, message]) => `${path}: ${message}`)
            .join("; ") || outcome.message}
          . <a href="/dashboard/payments">Back</a>.
        </p>
      </PlainLayout>,
      400,
    );
  });
};
