import { type Static, Type } from 'typebox';
import { INDIAN_PHONE_PATTERN } from '../../domain/geo/phone.js';
import { NamePart, OptionalEmail, PincodeNumber, PincodeText } from '../../http/schemas.js';
import { statedRule } from '../../http/stated-rules.js';

const Optional = (max: number, description: string) => Type.Optional(Type.String({ maxLength: max, description }));

/** Velocity's vendor_details: the seller the parcel ships for (a marketplace's vendor). Every field optional. */
export const VendorDetails = Type.Object(
  {
    name: Type.Optional(NamePart(200, 'Seller name; printed on the label as "Sold by".')),
    email: OptionalEmail,
    phone: Type.Optional(
      Type.String({
        maxLength: 20,
        description: 'Indian phone number.',
        // Blank is none; anything else is checked as every phone is.
        ...statedRule({ pattern: `^\\s*$|${INDIAN_PHONE_PATTERN}` }),
      }),
    ),
    address: Optional(500, 'Street address.'),
    address_2: Optional(500, 'Address line 2.'),
    city: Optional(100, 'City.'),
    state: Optional(100, 'State.'),
    country: Optional(100, 'Country.'),
    pin_code: Type.Optional(
      Type.Union([PincodeText({ maxLength: 6 }), PincodeNumber], { description: '6-digit Indian pincode.' }),
    ),
    pickup_location: Optional(200, "The vendor's own name for its pickup location."),
  },
  {
    additionalProperties: false,
    description: 'The seller this order ships for. Kept with the order, shown in the listing and printed on the label.',
  },
);
export type VendorDetailsInput = Static<typeof VendorDetails>;
