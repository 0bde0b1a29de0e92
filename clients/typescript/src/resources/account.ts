// The merchant's account: claiming it, its API keys, its team, wallets, settings and audit trail.
import type { RequestOptions } from "../http.js";
import type { Operations } from "../operations.js";
import { PagedList } from "../paging.js";
import type {
  AddPayoutWallet,
  AuditEntry,
  ChangeMember,
  CreateApiKey,
  InviteMember,
  UpdateMerchantSettings,
} from "../types.js";

/** `remit.merchants`. */
export function merchants(api: Operations) {
  return {
    /**
     * Emails a one-time claim link to the address (no key needed): always accepted, whether or
     * not a link was sent. Opening it signs the merchant in and shows a new write key, once.
     */
    claim: (email: string, options?: RequestOptions) =>
      api.operation("post", "/api/merchants/claim", { body: { email }, options }),
  };
}

export type Merchants = ReturnType<typeof merchants>;

/** `remit.keys`. */
export function keys(api: Operations) {
  return {
    /** The account's API keys (never a secret). */
    list: async (options?: RequestOptions) =>
      (await api.operation("get", "/api/keys", { options })).keys,
    /** A new key; its secret is in this answer only. */
    create: (body: CreateApiKey, options?: RequestOptions) =>
      api.operation("post", "/api/keys", { body, options }),
    revoke: (id: string, options?: RequestOptions) =>
      api.operation("delete", "/api/keys/{id}", { params: { id }, options }),
  };
}

export type Keys = ReturnType<typeof keys>;

/** `remit.members`: the account's team (docs/members.md). */
export function members(api: Operations) {
  return {
    /** Every member, removed ones included. */
    list: async (options?: RequestOptions) =>
      (await api.operation("get", "/api/members", { options })).members,
    /** Invites an address as a role; the one-time link is emailed to it. */
    invite: (body: InviteMember, options?: RequestOptions) =>
      api.operation("post", "/api/members", { body, options }),
    /** Changes a member's role. */
    update: (id: string, body: ChangeMember, options?: RequestOptions) =>
      api.operation("patch", "/api/members/{id}", { params: { id }, body, options }),
    /** Removes a member: its sessions and keys stop working at once. */
    remove: (id: string, options?: RequestOptions) =>
      api.operation("delete", "/api/members/{id}", { params: { id }, options }),
  };
}

export type Members = ReturnType<typeof members>;

/** `remit.wallets`. */
export function wallets(api: Operations) {
  return {
    /** The payout wallets registered, and the managed wallet's address. */
    list: (options?: RequestOptions) => api.operation("get", "/api/merchant/wallets", { options }),
    /** Registers a payout wallet (`byo` invoices pay into it; payouts go to it). */
    add: (body: AddPayoutWallet, options?: RequestOptions) =>
      api.operation("post", "/api/merchant/wallets", { body, options }),
    remove: (address: string, options?: RequestOptions) =>
      api.operation("delete", "/api/merchant/wallets/{address}", {
        params: { address },
        options,
      }),
  };
}

export type Wallets = ReturnType<typeof wallets>;

/** `remit.settings`. */
export function settings(api: Operations) {
  return {
    get: (options?: RequestOptions) => api.operation("get", "/api/merchant/settings", { options }),
    /** Changes the settings given; the others stay. */
    update: (body: UpdateMerchantSettings, options?: RequestOptions) =>
      api.operation("patch", "/api/merchant/settings", { body, options }),
  };
}

export type Settings = ReturnType<typeof settings>;

/** `remit.audit`. */
export function audit(api: Operations) {
  return {
    /**
     * The account's audit trail, newest first, page after page (following `next_before`);
     * `member_id`: only what that member did (signed in, or with a key it made).
     */
    list: (
      filters: { limit?: number | string; member_id?: string } = {},
      options?: RequestOptions,
    ): PagedList<AuditEntry> =>
      new PagedList(async (cursor) => {
        const page = await api.operation("get", "/api/audit", {
          query: { ...filters, before: cursor },
          options,
        });
        return { data: page.entries, next_cursor: page.next_before };
      }),
  };
}

export type Audit = ReturnType<typeof audit>;
