import { ExportQuerySchema } from "../../app/exports/csvStream.ts";
import { PAYMENTS_CSV_HEADER, paymentsCsv } from "../../app/exports/paymentsCsv.ts";
import { requireKey } from "../auth/authorize.ts";
import { actorOf } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { listRoute } from "../lists/listRoute.ts";
import { csvResponse, type Router } from "../openapi.ts";

const route = listRoute({
  path: "/api/exports/payments.csv",
  tags: ["Exports"],
  summary: "Export your payments as CSV",
  description:
    "One row per counted USDC payment with a block time in the range, and per refund confirmed in the range (money that left: a requested, submitted or failed refund moved nothing), oldest first, with what it was for (an invoice or a payment link) and the transaction on the block explorer (`EXPLORER_URL`: basescan.org on Base; empty on a local chain, whose transactions no explorer knows). `entry` says which it is: a `payment` row has the payer, log index and block; a `refund` row has the refund's id in `payment_id`, its transaction, and `refund_from`/`refund_to`. `amount` is always positive (a leading `-` would be escaped like a formula): what the merchant kept is the sum of the `payment` rows less the sum of the `refund` rows. A `credit_note` row (issued in the range) is a document, not money: its id in `payment_id`, its number in `credit_note_number`, what it took off the invoice in `amount` (in the invoice's currency, which `currency` then says), no transaction. For an invoice or link priced in a currency, `priced_in` names it, a payment's `amount_in_currency` is what it counted for in it and `rate` the USDC per unit it counted at (8 decimals; both empty while it waits for a rate), a credit note's `amount_in_currency` is its `amount`; the three are empty for one priced in USDC. RFC 4180 like the invoices export, streamed. A `read` key is enough.",
  query: ExportQuerySchema,
  response: csvResponse(
    `${PAYMENTS_CSV_HEADER.join(",")}\r\n2026-10-02 14:05:11,0x5e1f…-3,0x5e1f…,3,24118307,https://basescan.org/tx/0x5e1f…,0x70997970C51812dc3A010C7d01b50e0d17dc79C8,150.125,USDC,invoice,INV-0001,7d1c6f2a-4b3e-4f5a-9c8d-1e2f3a4b5c6d,Globex Corporation,,,0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC,payment,,,,,,\r\n2026-10-03 10:00:00,3f0a9e1c-7b2d-4c5e-8f6a-1b2c3d4e5f60,0x9a4c…,,,https://basescan.org/tx/0x9a4c…,,25.00,USDC,invoice,INV-0001,7d1c6f2a-4b3e-4f5a-9c8d-1e2f3a4b5c6d,Globex Corporation,,,0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC,refund,0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC,0x70997970C51812dc3A010C7d01b50e0d17dc79C8,,,,\r\n2026-10-04 09:00:00,0f8b6c1e-8d5a-4c7e-9a41-3b2f6d0c9e15,,,,,,10.00,USDC,invoice,INV-0001,7d1c6f2a-4b3e-4f5a-9c8d-1e2f3a4b5c6d,Globex Corporation,,,0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC,credit_note,,,CN-0001,,,\r\n2026-10-05 11:20:07,0x7b3d…-1,0x7b3d…,1,24160112,https://basescan.org/tx/0x7b3d…,0x70997970C51812dc3A010C7d01b50e0d17dc79C8,110.00,USDC,invoice,INV-0002,0b7e2d4c-1a3f-4e5b-8c6d-2f3a4b5c6d7e,Initech,,,0x90F79bf6EB2c4f870365E785982E1f101E93b906,payment,,,,EUR,100.00,1.10000000\r\n`,
  ),
});

export function registerExportPayments(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    // A key's merchant's own payments (app/ takes the merchant from the actor).
    requireKey(c);
    return paymentsCsv(deps, actorOf(c), c.req.query(), c.req.valid("query"));
  });
}
