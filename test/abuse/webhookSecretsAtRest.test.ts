import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDb } from "../../db/database.ts";
import { migrate } from "../../db/migrate.ts";
import { keyId, openSecret, parseKeyring, sealSecret } from "../../domain/secretBox.ts";
import { resealStoredWebhookSecrets } from "../../platform/resealWebhookSecrets.ts";
import { createTestDatabase, dumpAsText, type TestDatabase } from "../helpers/database.ts";
import { TEST_WEBHOOK_SECRET_KEY } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";

type Json = Record<string, unknown>;

describe("webhook secrets at rest", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("a dump of the database shows neither the secrets nor the key, yet the API can replay them", async () => {
    const created: Json[] = [];
    const requests = [
      ["/api/invoices", invoiceRequest({ webhook_url: "https://hooks.example.com/i" })],
      ["/api/links", linkRequest({ webhook_url: "https://hooks.example.com/l" })],
    ] as const;
    for (const [path, body] of requests) {
      const response = await stack.request(path, {
        method: "POST",
        json: body,
        headers: { "Idempotency-Key": `at-rest-${path}` },
      });
      expect(response.status).toBe(201);
      created.push((await response.json()) as Json);
    }
    const secrets = created.map((body) => body.webhook_secret as string);
    for (const secret of secrets) expect(secret).toMatch(/^whsec_/);

    const dump = await dumpAsText(stack.database.url);
    expect(dump).toContain("app.invoices");
    expect(dump).toContain(`enc:v1:${keyId(parseKeyring(TEST_WEBHOOK_SECRET_KEY).current)}:`);
    for (const secret of secrets) {
      const raw = Buffer.from(secret.slice("whsec_".length), "base64");
      for (const form of [
        secret,
        secret.slice(6),
        raw.toString("hex"),
        raw.toString("base64url"),
      ]) {
        expect(dump).not.toContain(form);
      }
    }
    expect(dump.toLowerCase()).not.toContain(TEST_WEBHOOK_SECRET_KEY);
    expect(stack.api.output()).not.toContain(secrets[0]);

    // An idempotent replay still answers the secret: the API opens it with the key.
    for (const [i, [path, body]] of requests.entries()) {
      const replay = await stack.request(path, {
        method: "POST",
        json: body,
        headers: { "Idempotency-Key": `at-rest-${path}` },
      });
      expect(replay.status).toBe(201);
      expect(((await replay.json()) as Json).webhook_secret).toBe(secrets[i]);
    }
  });
});

describe("migration 0008 and key rotation", () => {
  let database: TestDatabase;
  const log = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as never;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  test("plain secrets from before are sealed at start, rotated later, and plain ones are refused", async () => {
    // A database as it was before 0008: rebuild the schema up to 0007 and store plain secrets.
    const url = database.url;
    const admin = createDb(url, { max: 1 });
    await sql`drop schema app cascade; drop schema graphile_worker cascade`.execute(admin);
    await migrate(url, "0007_sweeps");
    const plainInvoice = `whsec_${randomBytes(32).toString("base64")}`;
    const plainLink = `whsec_${randomBytes(32).toString("base64")}`;
    await sql`
      insert into app.deposit_addresses (address) values
        ('0x1111111111111111111111111111111111111111'), ('0x2222222222222222222222222222222222222222')`.execute(
      admin,
    );
    await sql`insert into app.merchants (id, email) values ('00000000-0000-4000-8000-000000000001', 'm@example.com')`.execute(
      admin,
    );
    await sql`
      insert into app.invoices (id, merchant_id, invoice_number, slug, merchant_email,
        merchant_name_snapshot, merchant_address_snapshot, vendor_email, vendor_name, issue_date,
        due_date, wallet_type, wallet_address, deposit_address, total_amount, webhook_url,
        webhook_secret, status, sent_at)
      values ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001',
        'INV-0001', 'slugINV00001', 'm@example.com', 'M', 'Street', 'v@example.com', 'V',
        '2026-11-01', '2026-12-01', 'byo', '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
        '0x1111111111111111111111111111111111111111', 1000000, 'https://hooks.example.com/i',
        ${plainInvoice}, 'sent', now())`.execute(admin);
    await sql`
      insert into app.payment_links (id, slug, merchant_id, merchant_email, amount, description,
        wallet_type, wallet_address, deposit_address, webhook_url, webhook_secret)
      values ('00000000-0000-4000-8000-000000000003', 'slugLINK0001',
        '00000000-0000-4000-8000-000000000001', 'm@example.com', 5000000, 'Order',
        'byo', '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
        '0x2222222222222222222222222222222222222222', 'https://hooks.example.com/l', ${plainLink});
    `.execute(admin);

    expect(await migrate(url)).toContain("0008_sealed_webhook_secrets");
    const stored = async () =>
      (
        await sql<{ secret: string }>`
          select webhook_secret as secret from app.invoices union all
          select webhook_secret from app.payment_links`.execute(admin)
      ).rows.map((row) => row.secret);
    // The key is not known to SQL: the rows stay plain until `npm start` seals them.
    expect(await stored()).toEqual([plainInvoice, plainLink]);
    const sealedInsert = sql`update app.payment_links set webhook_secret = ${plainLink} || 'x'`;
    await expect(sealedInsert.execute(admin)).rejects.toThrow(/webhook_secret_sealed/);

    const oldKey = randomBytes(32).toString("hex");
    await resealStoredWebhookSecrets(url, oldKey, {}, log);
    const sealed = await stored();
    expect(sealed.join()).not.toContain("whsec_");
    expect(sealed.map((s) => openSecret(s, parseKeyring(oldKey)))).toEqual([
      plainInvoice,
      plainLink,
    ]);
    // Sealed rows are never rewritten as plain text, and other columns stay append-only.
    await expect(
      sql`update app.invoices set webhook_secret = ${plainInvoice}`.execute(admin),
    ).rejects.toThrow(/webhook_secret_sealed/);
    await expect(sql`update app.invoices set notes = 'x'`.execute(admin)).rejects.toThrow(
      /append-only/,
    );

    // A webhook endpoint's secret and, during its own rotation's overlap, the one before it.
    const endpointSecret = `whsec_${randomBytes(32).toString("base64")}`;
    const endpointPrevious = `whsec_${randomBytes(32).toString("base64")}`;
    await admin
      .insertInto("app.webhook_endpoints")
      .values({
        merchant_id: "00000000-0000-4000-8000-000000000001",
        url: "https://hooks.example.com/e",
        events: null,
        secret: sealSecret(endpointSecret, parseKeyring(oldKey)),
        previous_secret: sealSecret(endpointPrevious, parseKeyring(oldKey)),
        previous_secret_expires_at: new Date(Date.now() + 3600_000),
      })
      .execute();
    await expect(
      sql`update app.webhook_endpoints set secret = ${endpointSecret}`.execute(admin),
    ).rejects.toThrow(/check/);
    const endpointStored = async () => {
      const row = await admin
        .selectFrom("app.webhook_endpoints")
        .select(["secret", "previous_secret"])
        .executeTakeFirstOrThrow();
      return [row.secret, row.previous_secret as string];
    };

    // Rotation: the new key seals, the old one is only read, once.
    const newKey = randomBytes(32).toString("base64");
    await resealStoredWebhookSecrets(url, newKey, { WEBHOOK_SECRET_KEY_PREVIOUS: oldKey }, log);
    const rotated = await stored();
    const newRing = parseKeyring(newKey);
    expect(rotated.every((s) => s.startsWith(`enc:v1:${keyId(newRing.current)}:`))).toBe(true);
    expect(rotated.map((s) => openSecret(s, newRing))).toEqual([plainInvoice, plainLink]);
    const endpointRotated = await endpointStored();
    expect(endpointRotated.every((s) => s.startsWith(`enc:v1:${keyId(newRing.current)}:`))).toBe(
      true,
    );
    expect(endpointRotated.map((s) => openSecret(s, newRing))).toEqual([
      endpointSecret,
      endpointPrevious,
    ]);
    await resealStoredWebhookSecrets(url, newKey, {}, log);
    expect(await stored()).toEqual(rotated);
    await admin.destroy();
  });
});
