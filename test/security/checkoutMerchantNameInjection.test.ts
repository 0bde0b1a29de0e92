import { describe, expect, test } from "vitest";
import type { LinkRow } from "../../db/queries/links.ts";
import { EMPTY_PAYMENT_STATE } from "../../domain/paymentState.ts";
import { CheckoutPage } from "../../web/pages/checkoutPage.tsx";

/** A link as stored, with a merchant_name chosen by whoever created it. */
const link = (merchantName: string): LinkRow => ({
  id: "00000000-0000-4000-8000-000000000001",
  slug: "AbCdEfGhJkLm",
  merchant_id: "00000000-0000-4000-8000-000000000002",
  merchant_email: "shop@example.com",
  merchant_name: merchantName,
  amount: 12_500_000n,
  currency: "USDC",
  description: "Order #77",
  wallet_type: "managed",
  wallet_address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
  deposit_address: "0x8ba1f109551bd432803012645ac136ddd64dba72",
  webhook_url: null,
  webhook_secret: null,
  metadata: {},
  redirect_url: null,
  status: "pending",
  created_at: new Date("2026-11-23T00:00:00Z"),
});

describe("a link's merchant_name, shown to every payer, cannot inject markup", () => {
  test("tags and attribute breakouts render as text in the body and the title", async () => {
    const attack = `"><script>alert(1)</script><img src=x onerror=alert(2)>`;
    const html = String(
      await CheckoutPage({ link: link(attack), state: EMPTY_PAYMENT_STATE, qrSvg: null }),
    );
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});
