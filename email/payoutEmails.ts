import { formatUsdcForDisplay } from "../domain/money.ts";
import { escapeHtml } from "../internal/escapeHtml.ts";

const page = (body: string) =>
  `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2933;line-height:1.5">${body}</body></html>`;

/** A payout out of the managed wallet: requested (sent at once), or failed for good. */
export function payoutEmail(data: {
  kind: "payout_requested" | "payout_failed";
  amount: bigint;
  to: string;
  from: string;
  requestedAt: Date;
  automatic: boolean;
  reason: string | null;
}) {
  const amount = `${formatUsdcForDisplay(data.amount)} USDC`;
  const when = `${data.requestedAt.toISOString().replace("T", " ").slice(0, 19)} UTC`;
  if (data.kind === "payout_failed") {
    const subject = `Payout of ${amount} failed`;
    const text = [
      `The payout of ${amount} from your managed wallet ${data.from} to ${data.to}, requested at ${when}, could not be sent: ${data.reason ?? "the transfer was refused"}.`,
      "Nothing left the wallet; the amount is available again.",
    ].join("\n");
    const html = page(
      `<p>The payout of <strong>${escapeHtml(amount)}</strong> from your managed wallet <code>${escapeHtml(data.from)}</code> to <code>${escapeHtml(data.to)}</code>, requested at ${escapeHtml(when)}, could not be sent: ${escapeHtml(data.reason ?? "the transfer was refused")}.</p><p>Nothing left the wallet; the amount is available again.</p>`,
    );
    return { subject, text, html };
  }
  const how = data.automatic ? "by your automatic payout setting" : "from your account";
  const subject = `Payout of ${amount} to ${data.to}`;
  const text = [
    `A payout of ${amount} from your managed wallet ${data.from} to your payout wallet ${data.to} was requested ${how} at ${when}. It arrives within a minute.`,
    "",
    "If this was not you: revoke your API keys (DELETE /api/keys/{id}) and read your audit trail (GET /api/audit). A payout only ever goes to one of your registered payout wallets.",
  ].join("\n");
  const html = page(
    `<p>A payout of <strong>${escapeHtml(amount)}</strong> from your managed wallet <code>${escapeHtml(data.from)}</code> to your payout wallet <code>${escapeHtml(data.to)}</code> was requested ${escapeHtml(how)} at ${escapeHtml(when)}. It arrives within a minute.</p><p style="color:#616e7c;font-size:13px">If this was not you: revoke your API keys and read your audit trail. A payout only ever goes to one of your registered payout wallets.</p>`,
  );
  return { subject, text, html };
}
