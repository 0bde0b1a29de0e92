import type { MemberRow } from "../../../app/members/manageMembers.ts";
import { ROLE_SUMMARIES, type Role, roleAllows } from "../../../domain/accessPolicy.ts";
import { Alert, Badge, Csrf, DashboardLayout, Time } from "../layout.tsx";
import { DataTable } from "./dataTable.tsx";
import { Field, type FormState, SaveButton } from "./formFields.tsx";
import type { Session } from "./pageSession.ts";

const NOTICES: Record<string, string> = {
  invited: "The invitation is sent: its link works once, for 72 hours.",
  role_changed: "The role is changed.",
  removed: "The member is removed: its sessions and keys stopped working.",
  revoked: "The invitation is withdrawn: its link no longer works.",
};

/** What the signed-in member may do on this page. */
export type TeamRights = {
  /** Invite, change roles, remove (the `members` permission). */
  manage: boolean;
  /** The roles it may give (never one above its own; `owner` only by an owner). */
  grantable: readonly Role[];
  /** The member signed in. */
  self: string | null;
};

/** A role select: the roles `rights` may give, and the member's own when it is not one of them. */
function RoleSelect(props: {
  id: string;
  label?: string;
  current: string;
  grantable: readonly Role[];
}) {
  const roles = props.grantable.includes(props.current as Role)
    ? props.grantable
    : [props.current as Role, ...props.grantable];
  return (
    <select id={props.id} name="role" aria-label={props.label}>
      {roles.map((role) => (
        <option value={role} selected={role === props.current}>
          {role}
        </option>
      ))}
    </select>
  );
}

/** Whether `rights` may change or remove `member` (an owner only by an owner: the use case says so too). */
const mayTouch = (rights: TeamRights, role: Role, member: MemberRow) =>
  rights.manage && (member.role !== "owner" || roleAllows(role, "ownership"));

/**
 * `/dashboard/members`: the team (active members) and its pending invitations, each with its
 * role; for those who may manage the team, the invite form, a role select and a remove (or
 * withdraw) button on each row, posting to the same use cases as /api/members.
 */
export function MembersPage(props: {
  session: Session;
  members: MemberRow[];
  /** When each invited member's link stops working. */
  invitationEnds: Map<string, Date>;
  rights: TeamRights;
  maxPending: number;
  now: Date;
  notice?: string;
  state: Pick<FormState, "values" | "errors" | "problem">;
}) {
  const { rights, session } = props;
  const active = props.members.filter((m) => m.status === "active");
  const invited = props.members.filter((m) => m.status === "invited");
  const roleCell = (member: MemberRow) =>
    mayTouch(rights, session.role, member) ? (
      <form method="post" action={`/dashboard/members/${member.id}/role`} class="rolechange">
        <Csrf token={session.csrf} />
        <RoleSelect
          id={`role-${member.id}`}
          label={`Role of ${member.email}`}
          current={member.role}
          grantable={rights.grantable}
        />
        <button type="submit" aria-label={`Change the role of ${member.email}`}>
          Change
        </button>
      </form>
    ) : (
      <Badge status={member.role} />
    );
  const removeCell = (member: MemberRow, label: string, what: string) =>
    mayTouch(rights, session.role, member) ? (
      <form method="post" action={`/dashboard/members/${member.id}/remove`} class="inline">
        <Csrf token={session.csrf} />
        <button type="submit" class="danger" aria-label={`${what} ${member.email}`}>
          {label}
        </button>
      </form>
    ) : (
      <span class="muted">—</span>
    );
  return (
    <DashboardLayout title="Team" section="/dashboard/members" {...session}>
      {props.notice && NOTICES[props.notice] && <Alert tone="ok">{NOTICES[props.notice]}</Alert>}
      {props.state.problem && <Alert tone="bad">{props.state.problem}</Alert>}
      {rights.manage && (
        <section class="card" aria-labelledby="invite">
          <h2 id="invite">Invite a member</h2>
          <form method="post" action="/dashboard/members">
            <Csrf token={session.csrf} />
            <div class="grid2">
              <Field
                name="email"
                label="Email"
                type="email"
                autocomplete="off"
                state={props.state}
                hint={`A link that works once, for 72 hours: the address joins nothing until it follows it. At most ${props.maxPending} invitations wait at once; the owners are emailed.`}
                required
              />
              <div class="field">
                <label for="role">Role</label>
                <RoleSelect
                  id="role"
                  current={
                    rights.grantable.find((role) => role === props.state.values.role) ?? "support"
                  }
                  grantable={rights.grantable}
                />
                {props.state.errors.role && (
                  <p class="error" id="role-error">
                    {props.state.errors.role}
                  </p>
                )}
              </div>
            </div>
            <SaveButton label="Send invitation" />
          </form>
        </section>
      )}
      <section class="card" aria-labelledby="members">
        <h2 id="members">Members</h2>
        <DataTable
          rows={active}
          labelledBy="members"
          rowAttributes={(member) => ({ "data-member": member.id })}
          columns={[
            {
              label: "Email",
              cell: (member) => (
                <span class="person">
                  {member.email}
                  {member.id === rights.self && <span class="muted"> (you)</span>}
                </span>
              ),
            },
            { label: "Role", cell: roleCell },
            { label: "Joined", cell: (member) => <Time at={member.joined_at} /> },
            { label: "Action", cell: (member) => removeCell(member, "Remove", "Remove") },
          ]}
        />
      </section>
      <section class="card" aria-labelledby="pending">
        <h2 id="pending">Pending invitations</h2>
        <DataTable
          rows={invited}
          empty="No invitation is waiting."
          labelledBy="pending"
          rowAttributes={(member) => ({ "data-invitation": member.id })}
          columns={[
            { label: "Email", cell: (member) => member.email },
            { label: "Role", cell: roleCell },
            {
              label: "Link works until",
              cell: (member) => {
                const ends = props.invitationEnds.get(member.id) ?? null;
                return ends && ends > props.now ? (
                  <Time at={ends} />
                ) : (
                  <Badge status="expired" label="expired: withdraw, then invite again" />
                );
              },
            },
            {
              label: "Action",
              cell: (member) => removeCell(member, "Withdraw", "Withdraw the invitation of"),
            },
          ]}
        />
      </section>
      <section class="card" aria-labelledby="roles">
        <h2 id="roles">Roles</h2>
        <dl class="facts">
          {Object.entries(ROLE_SUMMARIES).map(([role, summary]) => (
            <>
              <dt>{role}</dt>
              <dd>{summary}</dd>
            </>
          ))}
        </dl>
        <p class="hint">
          Refunds, payout wallets, settings and the team are for owners and admins; every owner is
          emailed on each change to the team.
        </p>
      </section>
    </DashboardLayout>
  );
}
