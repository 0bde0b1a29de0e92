import { emailAddress } from "../app/schemaFields.ts";
import { claimWithNewKey } from "../db/queries/accounts.ts";
import { findMerchantByEmail, findNameOwner } from "../db/queries/merchants.ts";
import { apiKeyRecord, newApiKey } from "../domain/apiKeys.ts";
import { merchantNameKey } from "../domain/merchantName.ts";
import { CliError, EXIT } from "./io.ts";
import { type ServiceDatabaseOptions, withServiceDatabase } from "./serviceDatabase.ts";

/**
 * `remit merchants add`: creates (or finds) the merchant of `email`, marks it claimed (the
 * operator vouches for the address), registers `name` when given (reserved to it), and
 * answers a new write key, which is stored only as a hash. Audited as the operator's.
 */
export async function addMerchant(
  options: ServiceDatabaseOptions & { email: string; name?: string },
): Promise<{ email: string; merchantId: string; keyId: string; key: string }> {
  const email = options.email.trim().toLowerCase();
  // The API's own rule for an email address (app/schemaFields.ts), 254 characters at most.
  if (!emailAddress.safeParse(email).success)
    throw new CliError(`--email: "${options.email}" is not an email address`, EXIT.usage);
  const name = options.name?.trim();
  const nameKey = name === undefined ? undefined : merchantNameKey(name);
  if (name !== undefined && (!name || name.length > 200 || !nameKey))
    throw new CliError("--name: 1–200 characters, with at least one letter or digit", EXIT.usage);
  const key = newApiKey("write");
  return withServiceDatabase(options, (db) =>
    db.transaction().execute(async (trx) => {
      if (name && nameKey) {
        const owner = await findNameOwner(trx, nameKey);
        const self = await findMerchantByEmail(trx, email);
        if (owner && owner !== self?.id)
          throw new CliError(
            `--name: "${name}" is already the registered name of another merchant`,
            EXIT.invalid,
          );
      }
      const { merchantId, keyId } = await claimWithNewKey(trx, {
        email,
        ...(name && nameKey ? { registered: { name, nameKey } } : {}),
        actor: "operator",
        key: { ...apiKeyRecord(key), name: "operator" },
        requestId: null,
      });
      return { email, merchantId, keyId, key };
    }),
  );
}
