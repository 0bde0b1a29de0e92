import type { Context } from "hono";
import {
  changeMemberRole,
  inviteMember,
  MAX_PENDING_INVITATIONS,
  ownInvitationEnds,
  ownMembers,
  removeMember,
} from "../../../app/members/manageMembers.ts";
import {
  ChangeMemberSchema,
  changeMemberKnownKeys,
  InviteMemberSchema,
  inviteMemberKnownKeys,
} from "../../../app/members/schema.ts";
import { mayGrant, ROLES, roleAllows } from "../../../domain/accessPolicy.ts";
import { type FormFields, formToBody } from "../forms.ts";
import { MembersPage } from "../pages/membersPage.tsx";
import { attempt, type FormRefusal, formProblem, validated } from "../refusals.ts";
import type { DashboardEnv } from "../session.ts";
import { actorOf, formOf, notFound, type SignedInRoutes, session } from "./shared.tsx";

type PageState = { values?: FormFields; errors?: Record<string, string>; problem?: string };

/**
 * `/dashboard/members`: the team and its pending invitations; inviting, changing a role,
 * removing a member or withdrawing an invitation: the use cases of /api/members (the same rules,
 * refusals and audit entries), for the roles with the `members` permission.
 */
export const registerMembers: SignedInRoutes = (app, deps) => {
  const teamPage = async (
    c: Context<DashboardEnv>,
    state: PageState = {},
    status: 200 | FormRefusal["status"] = 200,
  ) => {
    const actor = actorOf(c);
    const [members, invitationEnds] = await Promise.all([
      ownMembers(deps, actor),
      ownInvitationEnds(deps, actor),
    ]);
    const { memberRole, memberId } = c.get("signedIn").identity;
    return c.html(
      <MembersPage
        session={session(c)}
        members={members}
        invitationEnds={invitationEnds}
        rights={{
          manage: roleAllows(memberRole, "members"),
          grantable: ROLES.filter((role) => mayGrant(memberRole, role)),
          self: memberId,
        }}
        maxPending={MAX_PENDING_INVITATIONS}
        now={new Date()}
        notice={c.req.query("notice")}
        state={{ values: state.values ?? {}, errors: state.errors ?? {}, problem: state.problem }}
      />,
      status,
    );
  };

  /** A refused form: the page again, with the refusal's message (and its fields' messages). */
  const refused = (c: Context<DashboardEnv>, refusal: FormRefusal, values: FormFields = {}) =>
    teamPage(
      c,
      {
        values,
        errors: refusal.fields,
        problem: formProblem(refusal.fields, "See the form below.", refusal.message),
      },
      refusal.status,
    );

  app.get("/members", (c) => teamPage(c));

  app.post("/members", async (c) => {
    const form = formOf(c);
    const input = validated(
      InviteMemberSchema,
      formToBody(form, ["email", "role"]),
      inviteMemberKnownKeys,
    );
    const invited = input.ok
      ? await attempt(async () => ({ row: await inviteMember(deps, actorOf(c), input.data) }))
      : input;
    if (!invited.ok) return refused(c, invited, form);
    return c.redirect("/dashboard/members?notice=invited", 303);
  });

  app.post("/members/:id/role", async (c) => {
    const id = c.req.param("id");
    const input = validated(
      ChangeMemberSchema,
      formToBody(formOf(c), ["role"]),
      changeMemberKnownKeys,
    );
    const changed = input.ok
      ? await attempt(async () => ({
          row: await changeMemberRole(deps, actorOf(c), id, input.data.role),
        }))
      : input;
    if (changed.ok && changed.row) return c.redirect("/dashboard/members?notice=role_changed", 303);
    // Not one of this team's members (another merchant's, a removed one): a 404, whatever the form.
    const live = (await ownMembers(deps, actorOf(c))).some(
      (member) => member.id === id && member.status !== "removed",
    );
    if (changed.ok || !live) return notFound(c, "member");
    return refused(c, changed);
  });

  app.post("/members/:id/remove", async (c) => {
    const removed = await attempt(async () => ({
      row: await removeMember(deps, actorOf(c), c.req.param("id")),
    }));
    if (removed.ok && !removed.row) return notFound(c, "member");
    if (!removed.ok) return refused(c, removed);
    // A member who never joined was an invitation: withdrawn.
    const notice = removed.row?.joined_at ? "removed" : "revoked";
    return c.redirect(`/dashboard/members?notice=${notice}`, 303);
  });
};
