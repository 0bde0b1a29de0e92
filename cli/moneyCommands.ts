import { randomUUID } from "node:crypto";
import type { Command } from "commander";
import { callApi } from "./api.ts";
import {
  type ApiOptions,
  type CommonOptions,
  field,
  id,
  printAnswer,
  type Row,
  table,
  targetOf,
  typedAmount,
} from "./commandKit.ts";
import { printJson } from "./io.ts";

/** The CLI's commands that move money out: refunds of invoices and links, payouts. */

const refundLine = (r: Row) =>
  [
    `refund ${r.refund_id}: ${r.status}, ${r.amount} USDC from ${r.source}`,
    r.to ? `to ${r.to}` : r.to_sender ? "to the sender" : "",
    r.claim_url ? `\nclaim link (shown once): ${r.claim_url}` : "",
  ]
    .filter(Boolean)
    .join(" ");

export function refundCommand(
  parent: Command,
  common: CommonOptions,
  what: "invoices" | "links",
): void {
  const arg = what === "invoices" ? "<id>" : "<slug>";
  common(
    parent
      .command(`refund ${arg}`)
      .description(
        `refund a payment (POST /api/${what}/${arg.slice(1, -1) === "id" ? "{id}" : "{slug}"}/refunds): to --to, to the sender (--to-sender), or neither for a one-time claim link`,
      )
      .option(
        "--amount <usdc>",
        "how much, e.g. 12.50 (default: only what is held, an overpayment's excess or a void invoice's payment; revenue needs an amount)",
      )
      .option("--to <address>", "the address on Base to send it to")
      .option("--to-sender", "to the address the payment came from")
      .option(
        "--idempotency-key <key>",
        "sent as the Idempotency-Key header (default: a new one: run again with the same key to retry safely)",
      ),
  ).action(
    async (
      key: string,
      options: ApiOptions & {
        amount?: string;
        to?: string;
        toSender?: boolean;
        idempotencyKey?: string;
      },
    ) => {
      const body = {
        ...(options.amount !== undefined
          ? { amount: typedAmount("--amount", options.amount) }
          : {}),
        ...(options.to !== undefined ? { to: options.to } : {}),
        ...(options.toSender ? { to_sender: true } : {}),
      };
      const headers = {
        "content-type": "application/json",
        "idempotency-key": options.idempotencyKey ?? randomUUID(),
      };
      const answer = await callApi(targetOf(options), `/api/${what}/${id(key)}/refunds`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
      printAnswer(options, answer.text, refundLine);
    },
  );
}

const payoutLine = (p: Row) =>
  `payout ${p.payout_id}: ${p.status}, ${p.amount} USDC from ${p.from} to ${p.to}`;

/** `remit payouts create|list`: money out of the managed wallet, to a payout wallet of yours. */
export function payoutCommands(program: Command, common: CommonOptions): void {
  const payouts = program
    .command("payouts")
    .description("take money out of your managed wallet, to one of your payout wallets");
  common(
    payouts
      .command("create")
      .description(
        "pay out of the managed wallet (POST /api/merchant/payouts) to a registered payout wallet",
      )
      .requiredOption("--amount <usdc>", "how much, e.g. 250 or 99.50 (at most what is available)")
      .requiredOption(
        "--to <address>",
        "one of your payout wallets (remit wallets / the dashboard)",
      )
      .option(
        "--idempotency-key <key>",
        "sent as the Idempotency-Key header (default: a new one: run again with the same key to retry safely)",
      ),
  ).action(
    async (options: ApiOptions & { amount: string; to: string; idempotencyKey?: string }) => {
      const answer = await callApi(targetOf(options), "/api/merchant/payouts", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "idempotency-key": options.idempotencyKey ?? randomUUID(),
        },
        body: JSON.stringify({ amount: typedAmount("--amount", options.amount), to: options.to }),
      });
      printAnswer(options, answer.text, payoutLine);
    },
  );
  common(
    payouts
      .command("list")
      .description("the last payouts and the managed wallet's balance (GET /api/merchant/payouts)"),
  ).action(async (options: ApiOptions) => {
    const answer = await callApi(targetOf(options), "/api/merchant/payouts");
    if (options.json) return printJson(answer.text);
    const body = JSON.parse(answer.text) as { payouts: Row[]; managed_wallet: Row | null };
    const wallet = body.managed_wallet;
    process.stdout.write(
      wallet
        ? `managed wallet ${wallet.address}: balance ${wallet.balance} USDC, reserved ${wallet.reserved}, available ${wallet.available}\n`
        : "no managed wallet yet (made with the first managed invoice or link)\n",
    );
    if (body.payouts.length > 0)
      process.stdout.write(
        `${table(body.payouts, [
          ["CREATED", field("created_at")],
          ["STATUS", field("status")],
          ["AMOUNT", field("amount")],
          ["TO", field("to")],
          ["TX", field("tx_hash")],
        ])}\n`,
      );
  });
}
