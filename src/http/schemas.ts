import { Type } from 'typebox';
import { INDIAN_PHONE_PATTERN } from '../domain/geo/phone.js';
import { PINCODE_PATTERN } from '../domain/geo/pincodes.js';
import { statedRule } from './stated-rules.js';

/** Schema pieces many routes share: ids, text, money, Indian phones and pincodes, the idempotency header. */

export const Uuid = Type.String({ format: 'uuid', description: 'UUID.' });

/**
 * A number is bounded to 32 bits, so that any number a client could mean reaches the 6-digit rule
 * (geo/resolve.ts) and its message, and none is out of range anywhere.
 */
export const PincodeNumber = Type.Integer({
  minimum: -2_147_483_648,
  maximum: 2_147_483_647,
  ...statedRule({ minimum: 100000, maximum: 999999 }),
});
/** A pincode as text: its six digits are checked by the services, and stated in the document. */
export const PincodeText = (options: { maxLength?: number } = {}) =>
  Type.String({ ...options, ...statedRule({ pattern: PINCODE_PATTERN }) });

/**
 * Six digits, as text or a JSON number: the services check the form (geo/resolve.ts), with the
 * request's other problems, and the document states it.
 */
export const Pincode = Type.Union([PincodeText(), PincodeNumber], {
  description: '6-digit Indian pincode present in the directory (a JSON number is accepted).',
  examples: ['110001'],
});

/**
 * How a payment is made, in any case: Velocity's examples write COD and PREPAID, SPEC's cod and
 * prepaid, and integrations send either to every route. Services compare it lowercased.
 */
export const PaymentMethod = (description: string, xError = 'must be "cod" or "prepaid"') =>
  Type.String({ pattern: '^(?:[Cc][Oo][Dd]|[Pp][Rr][Ee][Pp][Aa][Ii][Dd])$', 'x-error': xError, description });

export const Phone = Type.String({
  maxLength: 20,
  // Checked by the services (geo/resolve.ts), with the request's other problems.
  ...statedRule({ pattern: INDIAN_PHONE_PATTERN }),
  description: 'Indian phone number: 10 digits, optionally with +91, 91 or 0 in front.',
  examples: ['9876543210'],
});

/**
 * A practical addr-spec: a dot-atom local part of at most 64 characters, an @, and a domain of
 * letters, digits and hyphens with at least one dot. No quotes, angle brackets, spaces, control
 * characters or other text an address can hide a header or markup in; and none of ? # & %, which
 * would give the mailto: links of e-mails and the tracking page parameters of their own. Addresses
 * end up in Reply-To headers and those links.
 */
const ATOM = "[A-Za-z0-9!$'*+/=^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
export const EMAIL_ADDRESS = `(?=[^@]{1,64}@)${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})+`;

export const Email = Type.String({
  format: 'email',
  maxLength: 254,
  pattern: `^${EMAIL_ADDRESS}$`,
  'x-error': 'must be an email address',
});

/** C0 and C1 controls, DEL, and Unicode's line and paragraph separators: none belongs in a one-line value. */
const CONTROL = '\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029';
/** No control characters (no line breaks, tabs or escapes): the value is linear to check, whatever its length. */
export const ONE_LINE = `^[^${CONTROL}]*$`;
/** Not blank, and on one line. */
export const ONE_LINE_NOT_BLANK = `^(?!\\s*$)[^${CONTROL}]*$`;

/**
 * Bidirectional controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069) and zero-width characters
 * (U+200B–U+200D, U+2060, U+FEFF): in a sender's name they reorder or hide what the reader sees, so
 * that a From line reads as another sender's.
 */
const HIDDEN = '\\u061C\\u200B-\\u200F\\u202A-\\u202E\\u2060\\u2066-\\u2069\\uFEFF';
/** No bidirectional control and no zero-width character anywhere. */
export const NO_HIDDEN = `^[^${HIDDEN}]*$`;
export const NO_HIDDEN_ERROR = 'without bidirectional controls or zero-width characters';

/** A name shown as the sender of e-mails (an account's, a brand's): a Name without hidden characters either. */
export const SenderName = (max: number, description?: string) =>
  Type.String({
    minLength: 1,
    maxLength: max,
    pattern: `(?=${NO_HIDDEN})${ONE_LINE_NOT_BLANK}`,
    'x-error': `must be 1 to ${max} characters on one line, not blank, ${NO_HIDDEN_ERROR}`,
    ...(description !== undefined && { description }),
  });

/** A name (of a person, a brand, a place): printed on labels, put in e-mail headers and pages, so on one line. */
export const Name = (max: number, description?: string) =>
  Type.String({
    minLength: 1,
    maxLength: max,
    pattern: ONE_LINE_NOT_BLANK,
    'x-error': `must be 1 to ${max} characters on one line, not blank`,
    ...(description !== undefined && { description }),
  });

/** An optional part of a name ("" allowed), on one line. */
export const NamePart = (max: number, description?: string) =>
  Type.String({
    maxLength: max,
    pattern: ONE_LINE,
    'x-error': `must be at most ${max} characters on one line`,
    ...(description !== undefined && { description }),
  });

export const Text = (max: number, description: string) =>
  Type.String({
    minLength: 1,
    maxLength: max,
    pattern: '\\S',
    'x-error': `must be 1 to ${max} characters, not blank`,
    description,
  });

export const Money = (description: string) =>
  Type.Number({
    minimum: 0,
    maximum: 100_000_000,
    'x-error': 'must be a number from 0 to 100000000 (rupees)',
    description,
  });

export const Positive = (max: number, unit: string, description: string) =>
  Type.Number({
    exclusiveMinimum: 0,
    maximum: max,
    'x-error': `must be greater than 0 and at most ${max} ${unit}`,
    description,
  });

/** Velocity's `*_isd_code`: the phone's country code. Dakiya ships within India, so only 91. */
export const IsdCode = (whose: string) =>
  Type.Optional(
    Type.String({
      pattern: '^(?:\\+?91)?$',
      'x-error': 'must be 91: Dakiya ships within India',
      description: `Country calling code of ${whose}: 91 (or +91, or "") only. Accepted for Velocity compatibility.`,
      examples: ['91'],
    }),
  );

/** Velocity clients send "" for an e-mail they do not have. */
export const OptionalEmail = Type.Optional(
  Type.Union([Email, Type.Literal('')], { 'x-error': 'must be an email address' }),
);

export const Amount = (description: string) =>
  Type.String({ pattern: '^\\d+\\.\\d{2}$', description, examples: ['44.40'] });

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const Flag = (description: string) => Type.Union([Type.Literal(0), Type.Literal(1)], { description });

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      'x-error': 'must be 1 to 255 characters',
      description: 'Replays the first response for 24 hours when the same key is sent again with the same body.',
    }),
  ),
});
