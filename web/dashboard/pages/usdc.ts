import { formatUsdcForDisplay } from "../../../domain/money.ts";

/** An amount (USDC's base units) as the dashboard shows it, with its unit: "1,234.50 USDC". */
export const usdc = (units: bigint) => `${formatUsdcForDisplay(units)} USDC`;
