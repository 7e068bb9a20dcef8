import { eq } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { rtoSettings } from '../../base/db/schema.js';

export type SettingsRow = typeof rtoSettings.$inferSelect;

export async function findSettings(db: Executor, accountId: string): Promise<SettingsRow | undefined> {
  const [row] = await db.select().from(rtoSettings).where(eq(rtoSettings.accountId, accountId));
  return row;
}

/** Writes the given columns of the account's settings row, making it when it is the first. */
export async function saveSettings(
  db: Executor,
  accountId: string,
  values: Partial<Pick<SettingsRow, 'thresholds' | 'ndrRules'>> & { updatedAt: Date },
): Promise<SettingsRow> {
  const [row] = await db
    .insert(rtoSettings)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: rtoSettings.accountId, set: values })
    .returning();
  return row!;
}
