import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from './client.js';
import { serverSecrets } from './schema.js';

/**
 * A server-wide secret, made on first use and kept in the database, so every API process signs and
 * checks links with the same key and links survive restarts.
 */
export async function ensureServerSecret(db: Db, name: string): Promise<string> {
  await db
    .insert(serverSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
  return row!.value;
}
