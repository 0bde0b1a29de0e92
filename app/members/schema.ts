import { z } from "@hono/zod-openapi";
import { ROLE_SUMMARIES, ROLES } from "../../domain/accessPolicy.ts";
import { MEMBER_STATUSES } from "../../domain/statuses.ts";
import { emailAddress, rule } from "../schemaFields.ts";

const EXAMPLE_MEMBER_ID = "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f";

const roleField = z
  .enum(ROLES, rule("invalid_enum", `must be one of ${ROLES.join(", ")}`))
  .openapi({
    description: `${ROLES.map((role) => `\`${role}\`: ${ROLE_SUMMARIES[role]}`).join("; ")}. See docs/members.md.`,
  });

export const memberExample = {
  id: EXAMPLE_MEMBER_ID,
  email: "books@example.com",
  role: "accountant" as const,
  status: "invited" as const,
  invited_by: "5b0e3f6a-2c1d-4e8f-9a7b-3c4d5e6f7a8b",
  created_at: "2026-11-01T09:30:00.000Z",
  joined_at: null,
  removed_at: null,
};

export const MemberSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    role: z.enum(ROLES),
    status: z.enum(MEMBER_STATUSES).openapi({
      description:
        "`invited` until its invitation link is followed; `removed`: its sessions and keys stopped working at once.",
    }),
    invited_by: z.uuid().nullable(),
    created_at: z.string(),
    joined_at: z.string().nullable(),
    removed_at: z.string().nullable(),
  })
  .openapi("Member", { example: memberExample });

export const InviteMemberSchema = z
  .strictObject({
    email: emailAddress.openapi({
      example: "books@example.com",
      description: "Where the one-time invitation link is emailed.",
    }),
    role: roleField,
  })
  .openapi("InviteMember", { example: { email: "books@example.com", role: "accountant" } });

export const ChangeMemberSchema = z
  .strictObject({ role: roleField })
  .openapi("ChangeMember", { example: { role: "developer" } });

export const MemberIdParamSchema = z.object({
  id: z.string().openapi({
    param: { name: "id", in: "path" },
    example: EXAMPLE_MEMBER_ID,
    description: "The member's `id`; anything that is not one of your members is a 404.",
  }),
});

export const inviteMemberKnownKeys = (path: string): readonly string[] =>
  path === "" ? Object.keys(InviteMemberSchema.shape) : [];
export const changeMemberKnownKeys = (path: string): readonly string[] =>
  path === "" ? Object.keys(ChangeMemberSchema.shape) : [];
