/**
 * The highest underpayment tolerance a merchant may set: 10 USDC. Exchange withdrawal fees,
 * the shortfall it exists for, are cents to a few dollars; a larger figure would let a payer
 * settle an invoice while keeping real money back (docs/api.md, "Underpayment tolerance").
 */
export const MAX_UNDERPAYMENT_TOLERANCE = 10_000_000n;
