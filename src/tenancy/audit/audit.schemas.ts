import { Type } from 'typebox';
import { ListingQueryFields } from '../../http/csv.js';
import { Nullable, Uuid } from '../../http/schemas.js';

export const ENTRY_EXAMPLE = {
  id: '5b1f0c3e-7a2d-4e69-9b84-1c0d2e3f4a5b',
  at: '2026-11-25T06:30:00.000Z',
  actor: { type: 'member', id: '2d7e4b90-6c1a-4f38-b5e2-9a0c3d8f1e67', name: 'asha@acme.example' },
  ip: '203.0.113.7',
  user_agent: 'Mozilla/5.0',
  action: 'member.role_changed',
  object: { type: 'member', id: '7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f' },
  changes: { role: { before: 'operations', after: 'finance' } },
};

/** A page of one entry, the documented example. */
export const AUDIT_PAGE_EXAMPLE = () => ({ data: [ENTRY_EXAMPLE], next_cursor: null });

const Entry = Type.Object({
  id: Uuid,
  at: Type.String({ format: 'date-time' }),
  actor: Type.Object({
    type: Type.String({
      description:
        "member, api_key, account (its own login's panel session), access_token, operator, or system (Dakiya acting for the account: an NDR rule, the buyer on the tracking page; name says which).",
    }),
    id: Nullable(Type.String({ description: "The member's or the key's id." })),
    name: Type.String({ description: "The member's e-mail, the key's prefix and name, as they were then." }),
  }),
  ip: Nullable(Type.String()),
  user_agent: Nullable(Type.String()),
  action: Type.String({ description: 'What was done: member.invited, role.changed, api_key.revoked, …' }),
  object: Type.Object({ type: Type.String(), id: Nullable(Type.String()) }),
  changes: Nullable(
    Type.Record(Type.String(), Type.Unknown(), {
      description: 'Fields before and after, or what was made; never a secret or a buyer’s data in clear.',
    }),
  ),
});

export const AuditListEnvelope = Type.Object(
  {
    data: Type.Array(Entry, { description: 'Newest first.' }),
    next_cursor: Nullable(Type.String({ description: 'Send as cursor for the next page; null on the last.' })),
  },
  { examples: [AUDIT_PAGE_EXAMPLE()] },
);

const { carrier_id: _courier, ...listing } = ListingQueryFields;
const Filter = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 100, description }));

export const AuditQuery = Type.Object(
  {
    ...listing,
    actor_id: Filter('Only what this member or key did (its id).'),
    action: Filter('Only this action, e.g. member.suspended.'),
    object_type: Filter('Only entries about this kind of object: member, role, api_key, account.'),
    object_id: Filter('Only entries about this object.'),
  },
  { additionalProperties: false },
);
