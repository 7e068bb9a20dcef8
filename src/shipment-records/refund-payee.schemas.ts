import { Type } from 'typebox';
import { REFUND_METHODS } from '../domain/return-requests/refund-payee.js';

// Whom a refund goes to (domain/return-requests/refund-payee.ts), as a return request and its
// refund answer it: both carry the same payee, so its shape lives below both.

/** The payee, masked (`masked`) as answers and events show it, or in full for the payment system. */
export const PayeeSchema = (masked: boolean) =>
  Type.Object(
    {
      method: Type.String({
        enum: [...REFUND_METHODS],
        description:
          'original: to how a prepaid order was paid; upi or bank_transfer: to the buyer (a COD order); store_credit: as the store offers it.',
      }),
      upi_id: Type.Optional(
        Type.String({
          description: masked ? 'upi: the UPI id, its handle masked after two characters.' : 'upi: the UPI id.',
          examples: [masked ? 'as******@okaxis' : 'asha.menon@okaxis'],
        }),
      ),
      account_holder: Type.Optional(Type.String({ description: "bank_transfer: the account holder's name." })),
      account_number: Type.Optional(
        Type.String({
          description: masked
            ? 'bank_transfer: the account number, X but for its last four digits.'
            : 'bank_transfer: the account number.',
          examples: [masked ? 'XXXXXXXX4521' : '501004321904521'],
        }),
      ),
      ifsc: Type.Optional(Type.String({ description: "bank_transfer: the branch's IFSC.", examples: ['HDFC0000001'] })),
      bank: Type.Optional(
        Type.String({
          description: "bank_transfer: the bank the IFSC belongs to (RBI's list).",
          examples: ['HDFC Bank'],
        }),
      ),
    },
    { additionalProperties: false },
  );
