import { ownAuditLog } from "../../../app/audit/auditLog.ts";
import { ownApiKeys } from "../../../app/keys/manageKeys.ts";
import { ownMembers } from "../../../app/members/manageMembers.ts";
import { AuditPage } from "../pages/auditPage.tsx";
import { actorOf, PAGE_SIZE, type SignedInRoutes, session } from "./shared.tsx";

/** An entry id as GET /api/audit's `before` takes it. */
const ENTRY_ID = /^[0-9]{1,18}$/;

/**
 * `/dashboard/audit`: the account's audit trail (GET /api/audit's read model), each entry naming
 * the member, or the key and its maker; `member_id` keeps one member's (one of the team's, else
 * no filter), `before` pages back.
 */
export const registerAudit: SignedInRoutes = (app, deps) => {
  app.get("/audit", async (c) => {
    const actor = actorOf(c);
    const [members, keys] = await Promise.all([ownMembers(deps, actor), ownApiKeys(deps, actor)]);
    const asked = c.req.query("member_id") ?? "";
    const memberId = members.some((member) => member.id === asked) ? asked : "";
    const before = c.req.query("before") ?? "";
    const entries = await ownAuditLog(deps, actor, {
      limit: PAGE_SIZE,
      ...(ENTRY_ID.test(before) ? { before: BigInt(before) } : {}),
      ...(memberId ? { memberId } : {}),
    });
    const last = entries.at(-1);
    return c.html(
      <AuditPage
        session={session(c)}
        entries={entries}
        members={members}
        keys={keys}
        memberId={memberId}
        pager={{
          older: entries.length === PAGE_SIZE && last ? { before: String(last.id) } : null,
          // Back to the newest entries (the trail is paged by entry id, one way).
          newer: ENTRY_ID.test(before) ? {} : null,
        }}
      />,
    );
  });
};
