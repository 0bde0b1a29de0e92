import { USDC_ADDRESS } from "./constants.ts";

export type PayoutWalletProblem = { code: string; message: string };

const ZERO_ADDRESS = `0x${"0".repeat(40)}`;

/**
 * Why a merchant's own wallet can never receive a sweep, or null. USDC refuses a transfer to
 * the zero address and to its own contract (blacklisted in FiatTokenV2_2), and funds sent to
 * the relayer are the operator's gas money, not the merchant's. (A wallet that is one of the
 * service's deposit addresses is refused too, by the API, which has to look it up: a sweep
 * there would read as a payment of another invoice.)
 *
 * @example payoutWalletProblem("0x0000000000000000000000000000000000000000", {}) // { code: "zero_address", … }
 */
export function payoutWalletProblem(
  address: string,
  service: { relayerAddress?: string },
): PayoutWalletProblem | null {
  const wallet = address.toLowerCase();
  if (wallet === ZERO_ADDRESS)
    return {
      code: "zero_address",
      message: "cannot be the zero address: USDC cannot be sent there",
    };
  if (wallet === USDC_ADDRESS.toLowerCase())
    return {
      code: "usdc_contract",
      message: "cannot be the USDC contract itself: USDC refuses transfers to it",
    };
  if (service.relayerAddress && wallet === service.relayerAddress.toLowerCase())
    return {
      code: "relayer_address",
      message:
        "cannot be this service's relayer: it is the operator's account for gas, not a wallet of yours",
    };
  return null;
}
