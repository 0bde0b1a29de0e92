/**
 * A party's Peppol electronic address (EndpointID, BT-34/BT-49): Peppol BIS Billing 3.0
 * requires one for both parties (PEPPOL-EN16931-R010, -R020), from its Electronic Address
 * Scheme list, which has no e-mail scheme. A party's own Peppol identifier ("0208:0123456789")
 * is used as it is; without one, its VAT identifier, where Peppol has a VAT-number scheme for
 * the identifier's country (most of Europe registers participants under it).
 */
const VAT_NUMBER_SCHEMES: Record<string, string> = {
  AD: "9922",
  AL: "9923",
  AT: "9914",
  BA: "9924",
  BE: "9925",
  BG: "9926",
  CH: "9927",
  CY: "9928",
  CZ: "9929",
  DE: "9930",
  EE: "9931",
  EL: "9933",
  ES: "9920",
  FR: "9957",
  GB: "9932",
  GR: "9933",
  HR: "9934",
  HU: "9910",
  IE: "9935",
  IT: "0211",
  LI: "9936",
  LT: "9937",
  LU: "9938",
  LV: "9939",
  MC: "9940",
  ME: "9941",
  MK: "9942",
  MT: "9943",
  NL: "9944",
  PL: "9945",
  PT: "9946",
  RO: "9947",
  RS: "9948",
  SI: "9949",
  SK: "9950",
  SM: "9951",
  TR: "9952",
  VA: "9953",
};

/** "0208:0123456789": a Peppol participant identifier, its scheme (four digits) and its id. */
export const PEPPOL_ID_PATTERN = /^(\d{4}):([A-Za-z0-9][A-Za-z0-9.\-_:]{0,99})$/;

export type PeppolEndpoint = { scheme: string; id: string };

/** The party's endpoint, or null when it has neither a Peppol identifier nor a usable VAT one. */
export function peppolEndpoint(party: {
  peppolId: string | null;
  taxId: string | null;
}): PeppolEndpoint | null {
  const explicit = party.peppolId ? PEPPOL_ID_PATTERN.exec(party.peppolId) : null;
  if (explicit?.[1] && explicit[2]) return { scheme: explicit[1], id: explicit[2] };
  const scheme = party.taxId ? VAT_NUMBER_SCHEMES[party.taxId.slice(0, 2)] : undefined;
  return scheme && party.taxId ? { scheme, id: party.taxId } : null;
}
