import { and, asc, eq, ne } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { customRoles, members } from '../../base/db/schema.js';

export type CustomRoleRow = typeof customRoles.$inferSelect;

export function listCustomRoles(db: Executor, accountId: string): Promise<CustomRoleRow[]> {
  return db.select().from(customRoles).where(eq(customRoles.accountId, accountId)).orderBy(asc(customRoles.name));
}

export async function findCustomRole(
  db: Executor,
  accountId: string,
  name: string,
): Promise<CustomRoleRow | undefined> {
  const [row] = await db
    .select()
    .from(customRoles)
    .where(and(eq(customRoles.accountId, accountId), eq(customRoles.name, name)));
  return row;
}

export async function insertCustomRole(
  db: Executor,
  accountId: string,
  values: { name: string; permissions: string[]; at: Date },
): Promise<CustomRoleRow> {
  const [row] = await db
    .insert(customRoles)
    .values({
      accountId,
      name: values.name,
      permissions: values.permissions,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .returning();
  return row!;
}

export async function updateCustomRole(db: Executor, accountId: string, name: string, permissions: string[], at: Date) {
  const [row] = await db
    .update(customRoles)
    .set({ permissions, updatedAt: at })
    .where(and(eq(customRoles.accountId, accountId), eq(customRoles.name, name)))
    .returning();
  return row;
}

export async function deleteCustomRole(db: Executor, accountId: string, name: string) {
  await db.delete(customRoles).where(and(eq(customRoles.accountId, accountId), eq(customRoles.name, name)));
}

/** How many of the account's members (still on it) hold `role`. */
export async function countHolders(db: Executor, accountId: string, role: string): Promise<number> {
  const rows = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.accountId, accountId), eq(members.role, role), ne(members.status, 'removed')));
  return rows.length;
}
