import { BASE_CHAIN_ID } from "../../domain/constants.ts";
import { errorCode, Refusal, type Request, rejected } from "./walletProtocol.ts";

const CHAIN_HEX = `0x${BASE_CHAIN_ID.toString(16)}`;

/**
 * Makes sure the wallet is on Base: asks it to switch, adds Base when the wallet does not know
 * it (4902), and checks where it ended up. A refusal is said in plain words.
 */
export async function switchToBase(
  say: (text: string) => void,
  request: Request,
  name: string,
): Promise<void> {
  const id = await request("eth_chainId");
  if (Number.parseInt(String(id), 16) === BASE_CHAIN_ID) return;
  say(`Asking ${name} to switch to Base…`);
  try {
    await request("wallet_switchEthereumChain", [{ chainId: CHAIN_HEX }]).catch(
      async (error: unknown) => {
        if (errorCode(error) !== 4902) throw error;
        say(`Adding Base to ${name}…`);
        await request("wallet_addEthereumChain", [
          {
            chainId: CHAIN_HEX,
            chainName: "Base",
            nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
            rpcUrls: ["https://mainnet.base.org"],
            blockExplorerUrls: ["https://basescan.org"],
          },
        ]);
        await request("wallet_switchEthereumChain", [{ chainId: CHAIN_HEX }]);
      },
    );
  } catch (error) {
    if (rejected(error))
      throw new Refusal(
        `You declined switching to Base. This payment is USDC on Base only: switch ${name} to Base and try again.`,
      );
    throw error;
  }
  const now = Number.parseInt(String(await request("eth_chainId")), 16);
  if (now !== BASE_CHAIN_ID)
    throw new Refusal(
      `${name} is on another network (chain ${now}). Switch it to Base (chain ${BASE_CHAIN_ID}) and try again.`,
    );
}
