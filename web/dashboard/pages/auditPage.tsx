import type { AuditRow } from "../../../app/audit/auditLog.ts";
import type { ApiKeyRow } from "../../../app/keys/manageKeys.ts";
import type { MemberRow } from "../../../app/members/manageMembers.ts";
import type { AuditActor } from "../../../domain/statuses.ts";
import { DashboardLayout, Time } from "../layout.tsx";
import { DataTable } from "./dataTable.tsx";
import { FilterCard } from "./filterCard.tsx";
import { Pager, type PagerLinks } from "./pager.tsx";
import type { Session } from "./pageSession.ts";

/** Who acted when no member did (before members existed, open mode, the operator). */
const NO_MEMBER: Record<AuditActor, string> = {
  key: "a key",
  anonymous: "no key (open mode)",
  claim: "the claim link",
  operator: "the operator (remit CLI)",
  dashboard: "the dashboard",
};

/** Who did it: the member signed in, or the key and the member who made it. */
function Who(props: {
  entry: AuditRow;
  members: ReadonlyMap<string, MemberRow>;
  keys: ReadonlyMap<string, ApiKeyRow>;
}) {
  const { entry } = props;
  const member = entry.member_id ? props.members.get(entry.member_id) : undefined;
  const key = entry.key_id ? props.keys.get(entry.key_id) : undefined;
  if (!key) return <span class="person">{member?.email ?? NO_MEMBER[entry.actor]}</span>;
  return (
    <span class="person">
      key "{key.name}" <code>…{key.last_four}</code>
      {member && <span class="muted"> made by {member.email}</span>}
    </span>
  );
}

/** What an entry changed, field by field (old → new). */
const Changes = (props: { details: AuditRow["details"] }) =>
  props.details ? (
    <ul class="changes">
      {Object.entries(props.details).map(([field, change]) => (
        <li>
          {field}: {change.from ?? "—"} → {change.to ?? "—"}
        </li>
      ))}
    </ul>
  ) : (
    <span class="muted">—</span>
  );

/**
 * `/dashboard/audit`: the account's audit trail, newest first (GET /api/audit's read model),
 * each entry naming who did it; filtered by member.
 */
export function AuditPage(props: {
  session: Session;
  entries: AuditRow[];
  members: MemberRow[];
  keys: ApiKeyRow[];
  /** The member filtered by ("" none). */
  memberId: string;
  pager: PagerLinks;
}) {
  const members = new Map(props.members.map((member) => [member.id, member]));
  const keys = new Map(props.keys.map((key) => [key.id, key]));
  const filtered = members.get(props.memberId);
  return (
    <DashboardLayout title="Audit log" section="/dashboard/audit" {...props.session}>
      <FilterCard
        action="/dashboard/audit"
        name="member_id"
        label="Member"
        options={props.members.map(
          (member) =>
            [
              member.id,
              `${member.email} (${member.status === "active" ? member.role : member.status})`,
            ] as const,
        )}
        selected={props.memberId}
      />
      <section class="card">
        <DataTable
          rows={props.entries}
          empty={filtered ? `${filtered.email} did nothing recorded here.` : "Nothing yet."}
          caption={
            filtered
              ? `What ${filtered.email} did, newest first: signed in, or with a key it made`
              : "Every change to your account, newest first"
          }
          rowAttributes={(entry) => ({ "data-entry": String(entry.id) })}
          columns={[
            { label: "When", cell: (entry) => <Time at={entry.created_at} /> },
            {
              label: "Who",
              cell: (entry) => <Who entry={entry} members={members} keys={keys} />,
            },
            { label: "Action", cell: (entry) => <code class="name">{entry.action}</code> },
            { label: "On", cell: (entry) => <code>{entry.target}</code> },
            { label: "Changed", cell: (entry) => <Changes details={entry.details} /> },
          ]}
        />
        <Pager
          base="/dashboard/audit"
          query={props.memberId ? { member_id: props.memberId } : {}}
          links={props.pager}
        />
      </section>
    </DashboardLayout>
  );
}
