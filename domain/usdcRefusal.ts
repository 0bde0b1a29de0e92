/** USDC's (FiatTokenV2_2) `require` strings that decide what becomes of an authorization. */
export const USDC_REVERT = {
  blacklisted: "Blacklistable: account is blacklisted",
  toZeroAddress: "ERC20: transfer to the zero address",
  invalidSignature: "FiatTokenV2: invalid signature",
  exceedsBalance: "ERC20: transfer amount exceeds balance",
  authorizationUsed: "FiatTokenV2: authorization is used or canceled",
  authorizationExpired: "FiatTokenV2: authorization is expired",
  authorizationNotYetValid: "FiatTokenV2: authorization is not yet valid",
  paused: "Pausable: paused",
} as const;

/**
 * Why USDC refuses (or would refuse) a `transferWithAuthorization`:
 * - `authorization_used`: its nonce is used (an earlier submission of the same authorization
 *   executed, or the payer used or cancelled it);
 * - `insufficient_balance`: the sender holds less than the authorization moves;
 * - `expired` / `not_yet_valid`: outside its validAfter..validBefore window;
 * - `invalid_signature`: the signature is not the sender's over these terms;
 * - `blacklisted`: the sender or the recipient is on USDC's blacklist;
 * - `unreceivable`: the recipient is the zero address;
 * - `paused`: USDC is paused;
 * - `other_revert`: any other revert.
 */
export type UsdcRefusal =
  | "authorization_used"
  | "insufficient_balance"
  | "expired"
  | "not_yet_valid"
  | "invalid_signature"
  | "blacklisted"
  | "unreceivable"
  | "paused"
  | "other_revert";

const BY_REASON: Record<string, UsdcRefusal> = {
  [USDC_REVERT.authorizationUsed]: "authorization_used",
  [USDC_REVERT.exceedsBalance]: "insufficient_balance",
  [USDC_REVERT.authorizationExpired]: "expired",
  [USDC_REVERT.authorizationNotYetValid]: "not_yet_valid",
  [USDC_REVERT.invalidSignature]: "invalid_signature",
  [USDC_REVERT.blacklisted]: "blacklisted",
  [USDC_REVERT.toZeroAddress]: "unreceivable",
  [USDC_REVERT.paused]: "paused",
};

/**
 * The refusal a revert reason of USDC's `transferWithAuthorization` names (USDC's reverts are
 * `require` strings; an unknown or missing one is `other_revert`).
 *
 * @example
 * usdcRefusalOfReason("FiatTokenV2: authorization is used or canceled") // "authorization_used"
 */
export function usdcRefusalOfReason(reason: string | undefined): UsdcRefusal {
  return (
    (reason !== undefined && Object.hasOwn(BY_REASON, reason) && BY_REASON[reason]) ||
    "other_revert"
  );
}

/**
 * What a refusal means for a transfer Remit signs itself (a sweep, a refund), whose nonce is
 * fixed and whose window is an hour from its signing:
 * - `permanent`: no retry can succeed (a blacklisted party, the zero address, a signature USDC
 *   does not accept): give up and tell someone;
 * - `done`: the authorization was already used: an earlier submission of it executed;
 * - `stale`: the address holds less than the authorization moves now (a payment reorged out);
 * - `transient`: anything else (paused, outside its window, another revert): retry later.
 *
 * @example if (signedTransferVerdict(refusal) === "permanent") markFailed();
 */
export type SignedTransferVerdict = "permanent" | "done" | "stale" | "transient";

export function signedTransferVerdict(refusal: UsdcRefusal): SignedTransferVerdict {
  switch (refusal) {
    case "blacklisted":
    case "unreceivable":
    case "invalid_signature":
      return "permanent";
    case "authorization_used":
      return "done";
    case "insufficient_balance":
      return "stale";
    default:
      return "transient";
  }
}
