import type { Clock } from '../../base/clock.js';
import type { Db, Executor } from '../../base/db/client.js';
import { isUniqueViolation } from '../../base/db/errors.js';
import { ACCESS_ERRORS } from '../../domain/access/access.errors.js';
import { type Actor, beyond, PERMISSION_NAMES, type Principal } from '../../domain/access/permissions.js';
import type { RecordAudit } from '../audit/audit.js';
import { isRole, ROLE_NAMES, ROLES } from '../../domain/access/roles.js';
import { MEMBER_ERRORS } from './members.errors.js';
import * as repo from './roles.repository.js';

export interface RoleView {
  name: string;
  description: string;
  permissions: string[];
  custom: boolean;
}

const toView = (row: repo.CustomRoleRow): RoleView => ({
  name: row.name,
  description: "The account's own role.",
  permissions: row.permissions,
  custom: true,
});

export type RolesService = ReturnType<typeof createRolesService>;

/** Whether `role` names a role of the account: a built-in one, or one of its own. */
export async function roleExists(db: Executor, accountId: string, role: string): Promise<boolean> {
  return isRole(role) || (await repo.findCustomRole(db, accountId, role)) !== undefined;
}

/**
 * The account's own roles (issue 51), beside the built-in ones: a name and the permissions it
 * grants, never more than the credential defining it holds (as with keys). A role a member holds
 * cannot be deleted; changing its permissions changes theirs at once (within a second elsewhere).
 */
export function createRolesService({
  db,
  clock,
  forgetCredentials,
  record,
}: {
  db: Db;
  clock: Clock;
  forgetCredentials: () => void;
  /** Writes each change down in the audit log, in the change's transaction. */
  record: RecordAudit;
}) {
  function withinMaker(actor: Principal, permissions: string[]) {
    const over = beyond(permissions, actor.scopes);
    if (over.length > 0)
      throw ACCESS_ERRORS.permission_denied.error(
        over.map(
          (permission) => `permissions: this credential lacks ${permission}, so a role it defines cannot grant it`,
        ),
        over.map((permission) => ({
          field: `permissions.${permissions.indexOf(permission)}`,
          message: `${permission} is beyond this credential's own permissions`,
        })),
      );
  }

  return {
    async list(accountId: string): Promise<RoleView[]> {
      const builtIn = ROLE_NAMES.map((name) => ({
        name,
        description: ROLES[name].doc,
        permissions: [...(ROLES[name].permissions ?? PERMISSION_NAMES)],
        custom: false,
      }));
      const own = (await repo.listCustomRoles(db, accountId)).map(toView);
      return [...builtIn, ...own];
    },

    async create(actor: Actor, input: { name: string; permissions: string[] }): Promise<RoleView> {
      if (isRole(input.name))
        throw MEMBER_ERRORS.role_name_taken.error(`${input.name} is a built-in role's name`, 'name');
      withinMaker(actor, input.permissions);
      try {
        return await db.transaction(async (tx) => {
          const row = await repo.insertCustomRole(tx, actor.accountId, { ...input, at: clock.now() });
          await record(tx, actor, {
            action: 'role.created',
            objectType: 'role',
            objectId: row.name,
            changes: { permissions: row.permissions },
          });
          return toView(row);
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw MEMBER_ERRORS.role_name_taken.error(`The account has a role named ${input.name} already`, 'name');
        throw error;
      }
    },

    async update(actor: Actor, name: string, permissions: string[]): Promise<RoleView> {
      withinMaker(actor, permissions);
      const row = await db.transaction(async (tx) => {
        const before = await repo.findCustomRole(tx, actor.accountId, name);
        if (!before) throw MEMBER_ERRORS.role_not_found.error(`The account has no role of its own named ${name}`);
        const after = (await repo.updateCustomRole(tx, actor.accountId, name, permissions, clock.now()))!;
        await record(tx, actor, {
          action: 'role.changed',
          objectType: 'role',
          objectId: name,
          changes: { permissions: { before: before.permissions, after: after.permissions } },
        });
        return after;
      });
      forgetCredentials();
      return toView(row);
    },

    async remove(actor: Actor, name: string): Promise<RoleView> {
      return db.transaction(async (tx) => {
        const row = await repo.findCustomRole(tx, actor.accountId, name);
        if (!row) throw MEMBER_ERRORS.role_not_found.error(`The account has no role of its own named ${name}`);
        const holders = await repo.countHolders(tx, actor.accountId, name);
        if (holders > 0)
          throw MEMBER_ERRORS.role_in_use.error(`${holders} member(s) hold ${name}: give them another role first`);
        await repo.deleteCustomRole(tx, actor.accountId, name);
        await record(tx, actor, { action: 'role.deleted', objectType: 'role', objectId: name });
        return toView(row);
      });
    },
  };
}
