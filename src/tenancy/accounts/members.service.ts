import type { Clock } from '../../base/clock.js';
import type { Db, Executor } from '../../base/db/client.js';
import { isUniqueViolation } from '../../base/db/errors.js';
import type { Actor, Principal } from '../../domain/access/permissions.js';
import type { RecordAudit } from '../audit/audit.js';
import { isOwnerScope } from '../../domain/access/roles.js';
import * as accountsRepo from './accounts.repository.js';
import { hashCredential, newInvitationToken, type PasswordHasher } from './credentials.js';
import { deliver, invitationMail, type MemberMail } from './member-mail.js';
import { MEMBER_ERRORS } from './members.errors.js';
import * as repo from './members.repository.js';
import { roleExists } from './roles.service.js';
import { settleStores } from './store-limits.js';

/** An invitation's link works for a week, once. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface MemberView {
  id: string;
  email: string;
  name: string | null;
  role: string;
  status: string;
  invited_by: string | null;
  invitation_expires_at: string | null;
  created_at: string;
  updated_at: string;
  stores: string[] | null;
}

/** What became of an invitation's e-mail; without one sent, the link is given to the inviter to pass on. */
export interface InvitationSent {
  expires_at: string;
  email: 'sent' | 'not_sent' | 'failed';
  error?: string;
  accept_url?: string;
}

const toView = (row: repo.MemberRow): MemberView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  status: row.status,
  invited_by: row.invitedBy,
  invitation_expires_at: row.status === 'invited' ? row.inviteExpiresAt!.toISOString() : null,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
  stores: row.storeIds,
});

export interface MembersDeps {
  db: Db;
  clock: Clock;
  /** The SMTP relay and sender address; absent: invitations are not e-mailed, their links are answered. */
  mail: MemberMail;
  publicBaseUrl: string;
  memberLimit: number | undefined;
  /** Ends remembered credential checks in this process, so a suspension holds here at once. */
  forgetCredentials: () => void;
  passwords: PasswordHasher;
  /** Writes each change down in the audit log, in the change's transaction. */
  record: RecordAudit;
}

export type MembersService = ReturnType<typeof createMembersService>;

/** The fields `names` that differ between two versions of a row: each with its value before and after. */
export function changed<T extends object>(before: T, after: T, names: readonly (keyof T & string)[]) {
  const out: Record<string, { before: unknown; after: unknown }> = {};
  for (const name of names) if (before[name] !== after[name]) out[name] = { before: before[name], after: after[name] };
  return out;
}

const unknownRole = (role: string) =>
  MEMBER_ERRORS.role_unknown.error(`${role} is not a role of this account (GET /roles lists them)`, 'role');

/**
 * The members of an account (issue 51): invited by e-mail, then signing in with it; their role
 * says what they may do (domain/access/roles.ts). Only an owner (a credential holding everything)
 * touches an owner; nobody suspends, removes or re-roles themselves; the account's own login is an
 * owner no one can suspend, so an account always keeps one.
 */
export function createMembersService({
  db,
  clock,
  mail,
  publicBaseUrl,
  memberLimit,
  forgetCredentials,
  passwords,
  record,
}: MembersDeps) {
  async function target(executor: Executor, actor: Principal, id: string, touchesRole?: string) {
    const member = await repo.findMember(executor, actor.accountId, id);
    if (!member) throw MEMBER_ERRORS.member_not_found.error('Member not found');
    if (member.id === actor.memberId) throw MEMBER_ERRORS.member_is_you.error('You cannot do this to yourself');
    if ((member.role === 'owner' || touchesRole === 'owner') && !isOwnerScope(actor.scopes))
      throw MEMBER_ERRORS.owner_only.error('Only an owner may change an owner or make one');
    return member;
  }

  function newInvitation(now: Date) {
    const token = newInvitationToken();
    return {
      token,
      tokenHash: hashCredential(token),
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    };
  }

  /** E-mails the link after the member is written: a relay that fails leaves the invitation open, its link answered. */
  async function send(actor: Principal, member: repo.MemberRow, token: string): Promise<InvitationSent> {
    const acceptUrl = `${publicBaseUrl}/app/join#${token}`;
    const expiresAt = member.inviteExpiresAt!;
    const accountName = (await accountsRepo.findAccount(db, actor.accountId))!.name;
    const inviter = actor.memberId ? await repo.findMember(db, actor.accountId, actor.memberId) : undefined;
    const message = invitationMail({
      accountName,
      inviterName: inviter ? (inviter.name ?? inviter.email) : `The owner of ${accountName}`,
      role: member.role,
      acceptUrl,
      expiresAt,
    });
    const sent = await deliver(mail, member.email, message);
    return {
      expires_at: expiresAt.toISOString(),
      ...sent,
      ...(sent.email !== 'sent' && { accept_url: acceptUrl }),
    };
  }

  async function change(
    actor: Actor,
    id: string,
    values: Parameters<typeof repo.updateMember>[3],
    action: string,
    role?: string,
    stores?: readonly string[] | null,
  ) {
    return db.transaction(async (tx) => {
      const before = await target(tx, actor, id, role);
      if (role !== undefined && !(await roleExists(tx, actor.accountId, role))) throw unknownRole(role);
      const row = await repo.updateMember(tx, actor.accountId, id, {
        ...values,
        ...(stores !== undefined && { storeIds: await settleStores(tx, actor, stores) }),
      });
      if (values.status && values.status !== 'active')
        await repo.expireMemberSessions(tx, actor.accountId, id, values.updatedAt);
      await record(tx, actor, {
        action,
        objectType: 'member',
        objectId: id,
        changes: {
          ...changed(before, row!, ['role', 'name', 'status']),
          ...(String(before.storeIds) !== String(row!.storeIds) && {
            stores: { before: before.storeIds, after: row!.storeIds },
          }),
        },
      });
      return row!;
    });
  }

  return {
    async list(accountId: string): Promise<MemberView[]> {
      return (await repo.listMembers(db, accountId)).map(toView);
    },

    async invite(
      actor: Actor,
      input: { email: string; role: string; name?: string | null; stores?: readonly string[] | null },
    ) {
      if (input.role === 'owner' && !isOwnerScope(actor.scopes))
        throw MEMBER_ERRORS.owner_only.error('Only an owner may invite an owner', 'role');
      const now = clock.now();
      const invitation = newInvitation(now);
      const taken = () =>
        MEMBER_ERRORS.member_email_taken.error('This e-mail address is already a login on Dakiya', 'email');
      const member = await db.transaction(async (tx) => {
        if (
          (await repo.findMemberByEmail(tx, input.email)) ||
          (await accountsRepo.findAccountsByUsernames(tx, [input.email])).length > 0
        )
          throw taken();
        if (!(await roleExists(tx, actor.accountId, input.role))) throw unknownRole(input.role);
        const storeIds = await settleStores(tx, actor, input.stores);
        if (memberLimit !== undefined && (await repo.listMembers(tx, actor.accountId)).length >= memberLimit)
          throw MEMBER_ERRORS.member_limit_reached.error(`The account may have at most ${memberLimit} members`);
        try {
          const made = await repo.insertMember(tx, actor.accountId, {
            email: input.email,
            name: input.name ?? null,
            role: input.role,
            status: 'invited',
            inviteTokenHash: invitation.tokenHash,
            inviteExpiresAt: invitation.expiresAt,
            invitedBy: actor.memberId,
            storeIds,
            createdAt: now,
            updatedAt: now,
          });
          await record(tx, actor, {
            action: 'member.invited',
            objectType: 'member',
            objectId: made.id,
            changes: { email: made.email, role: made.role, ...(storeIds && { stores: storeIds }) },
          });
          return made;
        } catch (error) {
          if (isUniqueViolation(error)) throw taken();
          throw error;
        }
      });
      return { member: toView(member), invitation: await send(actor, member, invitation.token) };
    },

    /** A new link for an invitation not yet accepted; the old one stops working. */
    async resend(actor: Actor, id: string) {
      const now = clock.now();
      const invitation = newInvitation(now);
      const member = await db.transaction(async (tx) => {
        const found = await target(tx, actor, id);
        if (found.status !== 'invited') throw MEMBER_ERRORS.member_not_invited.error('The member has joined already');
        await record(tx, actor, { action: 'member.invitation_sent', objectType: 'member', objectId: id });
        return (await repo.updateMember(tx, actor.accountId, id, {
          inviteTokenHash: invitation.tokenHash,
          inviteExpiresAt: invitation.expiresAt,
          updatedAt: now,
        }))!;
      });
      return { member: toView(member), invitation: await send(actor, member, invitation.token) };
    },

    async update(
      actor: Actor,
      id: string,
      { stores, ...input }: { role?: string; name?: string | null; stores?: readonly string[] | null },
    ) {
      const values = { ...input, updatedAt: clock.now() };
      const row = await change(actor, id, values, 'member.changed', input.role, stores);
      forgetCredentials();
      return toView(row);
    },

    /** Ends the member's sessions and keys at once (in other processes within the credential cache's second). */
    async suspend(actor: Actor, id: string) {
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const found = await target(tx, actor, id);
        if (found.status !== 'active')
          throw MEMBER_ERRORS.member_not_suspendable.error(`The member is ${found.status}, not active`);
        await repo.expireMemberSessions(tx, actor.accountId, id, now);
        await record(tx, actor, { action: 'member.suspended', objectType: 'member', objectId: id });
        return (await repo.updateMember(tx, actor.accountId, id, { status: 'suspended', updatedAt: now }))!;
      });
      forgetCredentials();
      return toView(row);
    },

    async reactivate(actor: Actor, id: string) {
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const found = await target(tx, actor, id);
        if (found.status !== 'suspended')
          throw MEMBER_ERRORS.member_not_suspendable.error(`The member is ${found.status}, not suspended`);
        await record(tx, actor, { action: 'member.reactivated', objectType: 'member', objectId: id });
        return (await repo.updateMember(tx, actor.accountId, id, { status: 'active', updatedAt: now }))!;
      });
      return toView(row);
    },

    /** Takes the member off the account: their sessions, keys and invitation end, their e-mail is free again. */
    async remove(actor: Actor, id: string) {
      const now = clock.now();
      const row = await change(
        actor,
        id,
        { status: 'removed', inviteTokenHash: null, inviteExpiresAt: null, updatedAt: now },
        'member.removed',
      );
      forgetCredentials();
      return toView(row);
    },

    /** What an open invitation is to, for the page that accepts it. */
    async invitation(token: string) {
      const found = await repo.findInvitation(db, hashCredential(token), clock.now());
      if (!found) throw MEMBER_ERRORS.invitation_not_found.error('This invitation link is not valid any more');
      return {
        account_name: found.accountName,
        email: found.member.email,
        name: found.member.name,
        role: found.member.role,
        expires_at: found.member.inviteExpiresAt!.toISOString(),
      };
    },

    /** Joins: the member's name and password are set, the link is spent; the caller signs them in. */
    async accept(
      token: string,
      input: { name: string; password: string },
      from: { ip?: string; userAgent?: string } = {},
    ) {
      const passwordHash = await passwords.hash(input.password);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const found = await repo.findInvitation(tx, hashCredential(token), now);
        if (!found) throw MEMBER_ERRORS.invitation_not_found.error('This invitation link is not valid any more');
        const row = await repo.updateMember(tx, found.member.accountId, found.member.id, {
          name: input.name,
          passwordHash,
          status: 'active',
          inviteTokenHash: null,
          inviteExpiresAt: null,
          updatedAt: now,
        });
        const { accountId, id } = found.member;
        await record(
          tx,
          { accountId, scopes: [], memberId: id, via: 'session', ...from },
          {
            action: 'member.joined',
            objectType: 'member',
            objectId: id,
          },
        );
        return toView(row!);
      });
    },
  };
}
