import { errorCodes } from '../../domain/errors.js';

export const MEMBER_ERRORS = errorCodes({
  member_not_found: ['not_found', 'No member of this account has this id (a removed member is not found either).'],
  member_email_taken: [
    'conflict',
    "The e-mail address is already a member's login (of this account or another) or an account's username.",
  ],
  owner_only: ['forbidden', 'Only an owner may invite, change, suspend or remove an owner, or make one.'],
  member_is_you: ['unprocessable', 'A member cannot suspend, remove or change the role of themselves.'],
  member_not_invited: ['conflict', 'The member has accepted their invitation already: there is none to send again.'],
  member_not_suspendable: ['conflict', 'Only an active member can be suspended, and only a suspended one reactivated.'],
  role_not_found: [
    'not_found',
    "The role is neither a built-in one nor one of the account's own (GET /roles lists them).",
  ],
  role_unknown: ['unprocessable', "The role given a member is neither a built-in one nor one of the account's own."],
  role_name_taken: ['conflict', "The name is a built-in role's, or the account has a role of its own by that name."],
  role_in_use: ['conflict', 'Members hold the role: give them another before deleting it.'],
  member_limit_reached: ['unprocessable', 'The account has as many members as MEMBERS_PER_ACCOUNT allows.'],
  reset_not_found: [
    'not_found',
    'No open password reset has this token: it was never made, has been used or replaced, or is over an hour old.',
  ],
  invitation_not_found: [
    'not_found',
    'No open invitation has this token: it was never made, has been used or sent again, or is over 7 days old.',
  ],
});
