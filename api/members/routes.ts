import { z } from "@hono/zod-openapi";
import {
  changeMemberRole,
  inviteMember,
  MAX_PENDING_INVITATIONS,
  type MemberRow,
  ownMembers,
  removeMember,
} from "../../app/members/manageMembers.ts";
import {
  ChangeMemberSchema,
  changeMemberKnownKeys,
  InviteMemberSchema,
  inviteMemberKnownKeys,
  MemberIdParamSchema,
  MemberSchema,
  memberExample,
} from "../../app/members/schema.ts";
import { merchantActorOf } from "../auth/authorize.ts";
import type { AppDeps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { jsonBody, jsonRequestBody } from "../middleware/jsonBody.ts";
import { errorResponses, jsonResponse, keyRoute, type Router, validationHook } from "../openapi.ts";

/** A member as the API shows it. */
const presentMember = (row: MemberRow): z.infer<typeof MemberSchema> => ({
  id: row.id,
  email: row.email,
  role: row.role,
  status: row.status,
  invited_by: row.invited_by,
  created_at: row.created_at.toISOString(),
  joined_at: row.joined_at?.toISOString() ?? null,
  removed_at: row.removed_at?.toISOString() ?? null,
});

const TAGS = ["Account"];

const listRoute = keyRoute({
  method: "get",
  path: "/api/members",
  tags: TAGS,
  summary: "List your team",
  description:
    "Every member of the calling key's merchant, invited and removed ones included. The account's first email is its `owner`. See docs/members.md.",
  responses: {
    200: jsonResponse("The members", z.object({ members: z.array(MemberSchema) }), {
      members: [memberExample],
    }),
    ...errorResponses(401, 403),
  },
});

const inviteRoute = keyRoute({
  method: "post",
  path: "/api/members",
  tags: TAGS,
  summary: "Invite a member",
  description: `Emails a one-time invitation link (72 hours, used once) to \`email\`; following it joins the team as \`role\` and signs in to the dashboard. Never a role that may do more than yours (403 \`role_above_yours\`); only an owner invites an owner. At most ${MAX_PENDING_INVITATIONS} invitations pending at once (409 \`invitation_limit_reached\`: withdraw one with DELETE). The owners are emailed; audited.`,
  middleware: [jsonBody],
  request: jsonRequestBody(InviteMemberSchema),
  responses: {
    201: jsonResponse("Invited", MemberSchema),
    ...errorResponses(400, 401, 403, 409, 413, 415),
  },
});

const changeRoute = keyRoute({
  method: "patch",
  path: "/api/members/{id}",
  tags: TAGS,
  summary: "Change a member's role",
  description:
    "Only an owner makes, demotes or changes an owner; never a role above yours; a member cannot raise its own role (403 `own_role`); the last owner cannot be demoted (409 `last_owner`). Concurrent changes apply one after the other. The owners are emailed; audited.",
  middleware: [jsonBody],
  request: { params: MemberIdParamSchema, ...jsonRequestBody(ChangeMemberSchema) },
  responses: {
    200: jsonResponse("The member", MemberSchema),
    ...errorResponses(400, 401, 403, 404, 409, 413, 415),
  },
});

const removeRoute = keyRoute({
  method: "delete",
  path: "/api/members/{id}",
  tags: TAGS,
  summary: "Remove a member",
  description:
    "At once, on every replica: its dashboard sessions end and the keys it made stop working. Only an owner removes an owner; the last owner cannot be removed (409 `last_owner`). Removing a removed member changes nothing. The owners are emailed; audited.",
  request: { params: MemberIdParamSchema },
  responses: {
    200: jsonResponse("The removed member", MemberSchema),
    ...errorResponses(401, 403, 404, 409),
  },
});

export function registerMemberRoutes(app: Router, deps: AppDeps): void {
  app.openapi(listRoute, async (c) => {
    const members = await ownMembers(deps, merchantActorOf(c));
    return c.json({ members: members.map(presentMember) }, 200);
  });

  app.openapi<typeof inviteRoute>(
    inviteRoute,
    async (c) => {
      const member = await inviteMember(deps, merchantActorOf(c), c.req.valid("json"));
      return c.json(presentMember(member), 201);
    },
    validationHook(inviteMemberKnownKeys),
  );

  app.openapi<typeof changeRoute>(
    changeRoute,
    async (c) => {
      const { id } = c.req.valid("param");
      const member = await changeMemberRole(deps, merchantActorOf(c), id, c.req.valid("json").role);
      if (!member) throw notFound("member");
      return c.json(presentMember(member), 200);
    },
    validationHook(changeMemberKnownKeys),
  );

  app.openapi(removeRoute, async (c) => {
    const member = await removeMember(deps, merchantActorOf(c), c.req.valid("param").id);
    if (!member) throw notFound("member");
    return c.json(presentMember(member), 200);
  });
}
