import {
  BaseError,
  ContractFunctionRevertedError,
  ExecutionRevertedError,
  HttpRequestError,
  InsufficientFundsError,
  RpcRequestError,
  TimeoutError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";

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
 * if (failure.kind === "reverted" && failure.reason === USDC_BLACKLISTED) giveUp();
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
 * USDC's revert (FiatTokenV2_2's `Blacklistable`) when the sender or the recipient is
 * blacklisted: no retry changes it.
 */
export const USDC_BLACKLISTED = "Blacklistable: account is blacklisted";

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
