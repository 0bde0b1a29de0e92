import {
  BaseError,
  ContractFunctionRevertedError,
  ExecutionRevertedError,
  HttpRequestError,
  InsufficientFundsError,
  NonceTooLowError,
  RpcRequestError,
  TimeoutError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import { type UsdcRefusal, usdcRefusalOfReason } from "../domain/usdcRefusal.ts";

/**
 * What a failed call to the chain means for the caller, told by viem's error classes anywhere
 * in the `cause` chain (`BaseError.walk`), never by message text:
 * - `reverted`: the contract refused: its custom error's name, or `Error` with the `require`
 *   string as `reason` (USDC's reverts are `require` strings);
 * - `insufficient_funds`: the sender cannot pay for the gas;
 * - `not_found`: the node answered, and it has no such transaction or receipt;
 * - `unreachable`: no answer from the node: a network error, an HTTP error status, a timeout;
 * - `unknown`: anything else (another JSON-RPC error the node answered with, a bug).
 */
export type ChainFailure =
  | { kind: "reverted"; errorName: string | undefined; reason: string | undefined }
  | { kind: "insufficient_funds" }
  | { kind: "not_found" }
  | { kind: "unreachable" }
  | { kind: "unknown" };

/**
 * Classifies an error thrown by a viem action (see ChainFailure).
 *
 * @example
 * const failure = classifyChainError(error);
 * if (failure.kind === "reverted" && failure.reason === USDC_REVERT.blacklisted) giveUp();
 */
export function classifyChainError(error: unknown): ChainFailure {
  if (error instanceof BaseError) return classifyViemError(error);
  // A wrapper (ours or anyone's): what it wraps decides.
  if (error instanceof Error && error.cause !== undefined) return classifyChainError(error.cause);
  return { kind: "unknown" };
}

function classifyViemError(error: BaseError): ChainFailure {
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError)
    return { kind: "reverted", errorName: reverted.data?.errorName, reason: reverted.reason };
  if (error.walk((e) => e instanceof InsufficientFundsError || isGasAllowanceExceeded(e)))
    return { kind: "insufficient_funds" };
  if (
    error.walk(
      (e) => e instanceof TransactionReceiptNotFoundError || e instanceof TransactionNotFoundError,
    )
  )
    return { kind: "not_found" };
  if (error.walk(isUnreachable)) return { kind: "unreachable" };
  return { kind: "unknown" };
}

/**
 * USDC's refusal in a failed call of `transferWithAuthorization` (a simulation), told by its
 * revert reason on the typed error (ContractFunctionRevertedError's `reason`), with that
 * reason (or the custom error's name) for people; null when the failure is no revert at all
 * (the node unreachable, the relayer without ETH): nothing USDC said, so retry later.
 *
 * @example usdcRefusalOf(error)?.refusal === "authorization_used"
 */
export function usdcRefusalOf(
  error: unknown,
): { refusal: UsdcRefusal; reason: string | undefined } | null {
  const failure = classifyChainError(error);
  if (failure.kind !== "reverted") return null;
  return {
    refusal: usdcRefusalOfReason(failure.reason),
    reason: failure.reason ?? failure.errorName,
  };
}

/**
 * What a node's refusal of a raw transaction (eth_sendRawTransaction) means to the sender:
 * - `known`: it already has this very transaction (sending it again is harmless);
 * - `nonce_used`: the nonce is already mined (by this transaction or another);
 * - `underpriced`: a transaction with the same nonce is pending and this one does not pay
 *   enough more to replace it;
 * - `insufficient_funds`: the sender cannot pay for the gas;
 * - `unreachable`: no answer from the node; `other`: anything else.
 * viem types the nonce and funds cases (NonceTooLowError, InsufficientFundsError, from the
 * node's message, the way viem itself tells them apart); the other two have no class of its
 * own in viem and are told by the node's message on the typed RPC error's details, as viem
 * does for its classes.
 */
export type BroadcastRefusal =
  | "known"
  | "nonce_used"
  | "underpriced"
  | "insufficient_funds"
  | "unreachable"
  | "other";

export function classifyBroadcastError(error: unknown): BroadcastRefusal {
  if (!(error instanceof BaseError)) {
    return error instanceof Error && error.cause !== undefined
      ? classifyBroadcastError(error.cause)
      : "other";
  }
  const parts: string[] = [];
  error.walk((e) => {
    if (e instanceof BaseError) parts.push(e.details, e.shortMessage);
    return false;
  });
  const text = parts.join(" ").toLowerCase();
  if (error.walk((e) => e instanceof NonceTooLowError) || /nonce too low/.test(text))
    return "nonce_used";
  if (/already known|already imported|known transaction/.test(text)) return "known";
  if (/replacement transaction underpriced|replacement fee too low|underpriced/.test(text))
    return "underpriced";
  if (error.walk((e) => e instanceof InsufficientFundsError) || /insufficient funds/.test(text))
    return "insufficient_funds";
  if (error.walk(isUnreachable)) return "unreachable";
  return "other";
}

/**
 * One line about a chain error, for logs and stored errors: viem's short message and details,
 * never its full message, which names the RPC URL (a hosted RPC carries its API key in it).
 *
 * @example summarizeChainError(error) // "HTTP request failed. (fetch failed)"
 */
export function summarizeChainError(error: unknown): string {
  if (error instanceof BaseError)
    return error.details && error.details !== error.shortMessage
      ? `${error.shortMessage} (${error.details})`
      : error.shortMessage;
  return error instanceof Error ? error.message : String(error);
}

/**
 * No answer from the node: the request failed (network, HTTP status) or timed out. A JSON-RPC
 * error the node sent with an HTTP error status (a 429 or a 503 with a body) is no answer either.
 */
const isUnreachable = (e: unknown): boolean =>
  e instanceof HttpRequestError ||
  e instanceof TimeoutError ||
  (e instanceof RpcRequestError && e.status !== undefined && e.status >= 400);

/**
 * geth's "gas required exceeds allowance": estimating gas for a sender whose balance cannot
 * pay for it. viem has no class of its own for it and files it as an ExecutionRevertedError
 * by this very node message (ExecutionRevertedError.nodeMessage), so it is told apart the same
 * way, on that typed error's details only.
 */
const isGasAllowanceExceeded = (e: unknown): boolean =>
  e instanceof ExecutionRevertedError && /gas required exceeds allowance/.test(e.details);
