import { eq } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { paperworkSettings } from '../../base/db/schema.js';

export type PaperworkSettingsRow = typeof paperworkSettings.$inferSelect;

export async function findSettings(db: Executor, accountId: string): Promise<PaperworkSettingsRow | undefined> {
  const [row] = await db.select().from(paperworkSettings).where(eq(paperworkSettings.accountId, accountId));
  return row;
}

/** Writes the account's settings row, making it when it is the first. */
export async function saveSettings(
  db: Executor,
  accountId: string,
  values: Pick<PaperworkSettingsRow, 'ewayBillCheck' | 'updatedAt'>,
): Promise<PaperworkSettingsRow> {
  const [row] = await db
    .insert(paperworkSettings)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: paperworkSettings.accountId, set: values })
    .returning();
  return row!;
}
