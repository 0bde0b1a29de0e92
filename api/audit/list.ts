import { z } from "@hono/zod-openapi";
import { ownAuditLog } from "../../app/audit/auditLog.ts";
import { AUDIT_ACTORS } from "../../domain/statuses.ts";
import { UUID_PATTERN } from "../../domain/tokens.ts";
import { requireKey } from "../auth/authorize.ts";
import { actorOf } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { listRoute } from "../lists/listRoute.ts";
import { jsonResponse, type Router } from "../openapi.ts";

const auditEntryExample = {
  id: "42",
  actor: "key" as const,
  key_id: "5b0e3f6a-2c1d-4e8f-9a7b-3c4d5e6f7a8b",
  member_id: "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
  action: "wallet.added",
  target: "0x9f1A0469CBce2fEb53C705746446981548845b3B",
  request_id: "9f2b6c1e-5a7d-4e3b-8c0f-1d2e3f4a5b6c",
  created_at: "2026-11-01T09:30:00.000Z",
  details: null,
};

const EntrySchema = z
  .object({
    id: z
      .string()
      .openapi({ description: "Increasing; pass the last one as `before` for the next page." }),
    actor: z.enum(AUDIT_ACTORS).openapi({
      description:
        "`key` (an API key: `key_id`), `anonymous` (open mode, before the account was claimed), `claim` (the claim page), `operator` (`remit merchants add`).",
    }),
    key_id: z.string().nullable(),
    member_id: z.string().nullable().openapi({
      description:
        "The member who did it: signed in to the dashboard, or the member who made the key (GET /api/members). Null before members existed, in open mode, or by the operator.",
    }),
    action: z.string().openapi({
      description:
        "`invoice.created`, `invoice.sent`, `link.created`, `webhook.redelivered`, `key.created`, `key.revoked`, `wallet.added`, `wallet.removed`, `merchant.claimed`, `settings.updated` (its `details` say what changed; a new `notification_email` waits for its link to be followed), `settings.notification_email_verified`.",
    }),
    target: z.string().openapi({
      description:
        "An invoice, link, key or event id, a wallet address, or the settings changed (comma-separated names).",
    }),
    request_id: z.string().nullable(),
    created_at: z.string(),
    details: z
      .record(z.string(), z.object({ from: z.string().nullable(), to: z.string().nullable() }))
      .nullable()
      .openapi({
        description:
          'What the action changed, old → new, by field (`settings.updated`: `{"notification_email": {"from": "a@…", "to": "b@…"}}`; null: the account email); null for other actions.',
      }),
  })
  .openapi("AuditEntry", {
    example: auditEntryExample,
  });

const QuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .optional()
    .openapi({
      param: { name: "limit", in: "query" },
      example: 100,
      description: "1–500, default 100.",
    }),
  before: z
    .string()
    .regex(/^[0-9]{1,18}$/, "must be an entry id")
    .optional()
    .openapi({
      param: { name: "before", in: "query" },
      description: "Only entries older than this id.",
    }),
  member_id: z
    .string()
    .regex(UUID_PATTERN, "must be a member id")
    .optional()
    .openapi({
      param: { name: "member_id", in: "query" },
      example: "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
      description:
        "Only what this member did: signed in to the dashboard, or with a key it made (GET /api/members). Another merchant's member, or none: no entries.",
    }),
});

// Paged by `before` (an entry id), not by a cursor: the contract it has always had.
const route = listRoute({
  path: "/api/audit",
  tags: ["Account"],
  summary: "Your audit trail",
  description:
    "Every management action on your account, newest first: invoices and links created, invoices sent, redeliveries, keys created and revoked, payout wallets added and removed, with the key, the member, time and request id; `member_id` keeps one member's.",
  query: QuerySchema,
  response: jsonResponse(
    "The entries",
    z.object({ entries: z.array(EntrySchema), next_before: z.string().nullable() }),
    { entries: [auditEntryExample], next_before: null },
  ),
});

export function registerAuditRoute(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    requireKey(c);
    const query = c.req.valid("query");
    const limit = query.limit ?? 100;
    const rows = await ownAuditLog(deps, actorOf(c), {
      limit,
      ...(query.before ? { before: BigInt(query.before) } : {}),
      ...(query.member_id ? { memberId: query.member_id.toLowerCase() } : {}),
    });
    return c.json(
      {
        entries: rows.map((row) => ({
          id: String(row.id),
          actor: row.actor,
          key_id: row.key_id,
          member_id: row.member_id,
          action: row.action,
          target: row.target,
          request_id: row.request_id,
          created_at: row.created_at.toISOString(),
          details: row.details,
        })),
        next_before: rows.length === limit ? String(rows.at(-1)?.id) : null,
      },
      200,
    );
  });
}
