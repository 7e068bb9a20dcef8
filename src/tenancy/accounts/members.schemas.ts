import { type Static, Type } from 'typebox';
import { CUSTOM_ROLE_NAME, ROLE_NAMES, ROLES } from '../../domain/access/roles.js';
import { EXAMPLE } from '../../http/examples.js';
import { Email, Text, Uuid } from '../../http/schemas.js';
import { Password } from './accounts.schemas.js';
import { StoreLimit } from './api-keys.schemas.js';

const MEMBER_EXAMPLE = {
  id: EXAMPLE.memberId,
  email: EXAMPLE.memberEmail,
  name: 'Meera Iyer',
  role: 'operations',
  status: 'invited',
  invited_by: null,
  invitation_expires_at: '2026-12-02T06:30:00.000Z',
  created_at: '2026-11-25T06:30:00.000Z',
  updated_at: '2026-11-25T06:30:00.000Z',
  stores: [EXAMPLE.storeId],
};
const ACTIVE_EXAMPLE = { ...MEMBER_EXAMPLE, status: 'active', invitation_expires_at: null };

const Role = Type.String({
  pattern: CUSTOM_ROLE_NAME.source,
  'x-error': `must be one of ${ROLE_NAMES.join(', ')} or a role of the account's own (GET /roles)`,
  description: `${ROLE_NAMES.map((name) => `${name}: ${ROLES[name].doc}`).join(' ')} Or a role of the account's own (POST /roles).`,
});

const memberFields = {
  id: Uuid,
  email: Type.String({ description: 'Their login, as invited.' }),
  name: Type.Union([Type.String(), Type.Null()], {
    description: 'As they gave it on joining (or the inviter, before).',
  }),
  role: Role,
  status: Type.String({
    enum: ['invited', 'active', 'suspended', 'removed'],
    description: 'invited: the link not yet used; suspended: signed out, keys dead, until reactivated.',
  }),
  invited_by: Type.Union([Uuid, Type.Null()], {
    description: "The member who invited them; null: the account's own login.",
  }),
  invitation_expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'While invited: when the link stops working.',
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  stores: StoreLimit,
};
const Member = Type.Object(memberFields);

const Invitation = Type.Object({
  expires_at: Type.String({ format: 'date-time', description: 'The link works once, until then (7 days).' }),
  email: Type.String({
    enum: ['sent', 'not_sent', 'failed'],
    description: 'sent through SMTP_URL; not_sent: no SMTP_URL is set; failed: the relay refused (error says why).',
  }),
  error: Type.Optional(Type.String()),
  accept_url: Type.Optional(
    Type.String({ description: 'Only when the e-mail was not sent: the link, for the inviter to pass on.' }),
  ),
});

export const MemberListEnvelope = Type.Object(
  {
    data: Type.Array(Member, {
      description:
        "In the order they were invited; removed ones left out. The account's own login, an owner, is not listed.",
    }),
  },
  { examples: [{ data: [ACTIVE_EXAMPLE] }] },
);

export const MemberEnvelope = Type.Object({ data: Member }, { examples: [{ data: ACTIVE_EXAMPLE }] });

export const InvitedEnvelope = Type.Object(
  { data: Member, invitation: Invitation },
  {
    examples: [
      { data: MEMBER_EXAMPLE, invitation: { expires_at: MEMBER_EXAMPLE.invitation_expires_at, email: 'sent' } },
    ],
  },
);

export const InviteBody = Type.Object(
  {
    email: { ...Email, description: 'Where the invitation goes; their login once they join.' },
    role: Role,
    name: Type.Optional(Text(100, 'How the team calls them, until they give their own.')),
    stores: Type.Optional({
      ...StoreLimit,
      description:
        "The stores they see and act on (a 3PL, a brand manager). Absent: the inviter's (every one for an unlimited inviter); never beyond the inviter's (403).",
    }),
  },
  {
    additionalProperties: false,
    examples: [{ email: EXAMPLE.memberEmail, role: 'operations', name: 'Meera', stores: [EXAMPLE.storeId] }],
  },
);
export type InviteInput = Static<typeof InviteBody>;

export const MemberChangeBody = Type.Object(
  {
    role: Type.Optional(Role),
    name: Type.Optional(Text(100, 'How the team calls them.')),
    stores: Type.Optional({
      ...StoreLimit,
      description: 'The stores they see and act on from now; null: every store.',
    }),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ role: 'finance' }] },
);
export type MemberChangeInput = Static<typeof MemberChangeBody>;

export const MemberParams = Type.Object({
  id: Type.String({ format: 'uuid', description: "The member's id (GET /members).", examples: [EXAMPLE.memberId] }),
});

const Token = Type.String({ minLength: 1, maxLength: 200, description: 'The token after # in the invitation link.' });

export const InvitationTokenBody = Type.Object({ token: Token }, { additionalProperties: false });

export const InvitationView = Type.Object({
  account_name: Type.String(),
  email: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  role: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
});

export const AcceptBody = Type.Object(
  { token: Token, name: Text(100, 'Their name, as the team will see it.'), password: Password },
  { additionalProperties: false },
);

export const ResetAskBody = Type.Object({ email: Email }, { additionalProperties: false });

export const ResetConfirmBody = Type.Object({ token: Token, password: Password }, { additionalProperties: false });
