import { randomBytes } from "node:crypto";
import { migrate } from "../../db/migrate.ts";
import { grantRuntimeRole } from "../../db/runtimeRole.ts";
import { adminQuery } from "./database.ts";

/**
 * A database of its own with the two roles `remit db roles` prints (known passwords): the owner,
 * which migrates, and the runtime role, granted as the service grants it. `drop` removes all.
 */
export async function createTwoRoleDatabase(adminUrl: string, prefix: string) {
  const suffix = randomBytes(4).toString("hex");
  const names = {
    owner: `own_${suffix}`,
    runtime: `app_${suffix}`,
    database: `${prefix}_${suffix}`,
  };
  const urlAs = (role: string) =>
    adminUrl
      .replace(/\/\/[^@]*@/, `//${role}:secret@`)
      .replace(/\/postgres$/, `/${names.database}`);
  const ownerUrl = urlAs(names.owner);
  const runtimeUrl = urlAs(names.runtime);
  const admin = (statement: string) => adminQuery(adminUrl, statement);
  await admin(`create role ${names.owner} login password 'secret'`);
  await admin(`create role ${names.runtime} login password 'secret'`);
  await admin(`create database ${names.database} owner ${names.owner}`);
  await migrate(ownerUrl);
  await grantRuntimeRole(ownerUrl, runtimeUrl);
  return {
    names,
    ownerUrl,
    runtimeUrl,
    admin,
    drop: async () => {
      await admin(`drop database if exists ${names.database} with (force)`);
      await admin(`drop owned by ${names.runtime}`).catch(() => {});
      await admin(`drop role if exists ${names.runtime}`);
      await admin(`drop role if exists ${names.owner}`);
    },
  };
}
