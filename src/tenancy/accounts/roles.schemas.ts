import { type Static, Type } from 'typebox';
import { CUSTOM_ROLE_NAME, ROLES } from '../../domain/access/roles.js';
import { EXAMPLE } from '../../http/examples.js';
import { Scopes } from './api-keys.schemas.js';

const ROLE_EXAMPLE = {
  name: EXAMPLE.roleName,
  description: "The account's own role.",
  permissions: ['shipments:read', 'shipments:write', 'tracking:read'],
  custom: true,
};

const RoleView = Type.Object({
  name: Type.String(),
  description: Type.String(),
  permissions: Type.Array(Type.String(), {
    description: 'Every permission for an owner, who holds what is added later too.',
  }),
  custom: Type.Boolean({ description: "The account's own role (POST /roles), not a built-in one." }),
});

export const RoleListEnvelope = Type.Object(
  { data: Type.Array(RoleView, { description: 'The built-in roles, then the account’s own by name.' }) },
  {
    examples: [
      {
        data: [
          { name: 'viewer', description: ROLES.viewer.doc, permissions: [...ROLES.viewer.permissions], custom: false },
          ROLE_EXAMPLE,
        ],
      },
    ],
  },
);

export const RoleEnvelope = Type.Object({ data: RoleView }, { examples: [{ data: ROLE_EXAMPLE }] });

const Grants = {
  ...Scopes,
  description: 'What the role grants, each permission once; never one beyond the credential defining it (403).',
};

export const NewRoleBody = Type.Object(
  {
    name: Type.String({
      pattern: CUSTOM_ROLE_NAME.source,
      'x-error': 'must be 2 to 40 lower-case letters, digits and hyphens, a letter first',
      description: "Lower case, a letter first; not a built-in role's name. It cannot be renamed.",
    }),
    permissions: Grants,
  },
  { additionalProperties: false, examples: [{ name: EXAMPLE.roleName, permissions: ROLE_EXAMPLE.permissions }] },
);
export type NewRoleInput = Static<typeof NewRoleBody>;

export const RoleChangeBody = Type.Object(
  { permissions: Grants },
  { additionalProperties: false, examples: [{ permissions: ['shipments:read', 'tracking:read'] }] },
);

export const RoleParams = Type.Object({
  name: Type.String({
    pattern: CUSTOM_ROLE_NAME.source,
    description: "One of the account's own roles.",
    examples: [EXAMPLE.roleName],
  }),
});
