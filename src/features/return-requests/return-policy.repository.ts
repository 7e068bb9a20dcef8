import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { returnPolicies } from '../../base/db/schema.js';

export type PolicyRow = typeof returnPolicies.$inferSelect;

export async function findPolicy(ex: Executor, accountId: string, storeId: string): Promise<PolicyRow | undefined> {
  const [row] = await ex
    .select()
    .from(returnPolicies)
    .where(and(eq(returnPolicies.accountId, accountId), eq(returnPolicies.storeId, storeId)));
  return row;
}

export async function savePolicy(ex: Executor, row: PolicyRow): Promise<PolicyRow> {
  const { accountId: _, storeId: __, ...values } = row;
  const [saved] = await ex
    .insert(returnPolicies)
    .values(row)
    .onConflictDoUpdate({ target: returnPolicies.storeId, set: values })
    .returning();
  return saved!;
}
