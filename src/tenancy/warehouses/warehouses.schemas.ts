import { Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';
import { Uuid } from '../../http/schemas.js';
import { Email, Name, Phone, Pincode } from '../../http/schemas.js';

const Text = (max: number, description?: string) =>
  Type.String({
    minLength: 1,
    maxLength: max,
    pattern: '\\S',
    'x-error': `must be 1 to ${max} characters, not blank`,
    ...(description && { description }),
  });

/** The warehouse of the examples as it is sent; answers show it back with its id. */
const OKHLA = {
  // Not the README's "Okhla Hub": a user who followed it and then tries this example gets a second
  // warehouse, not a second of the same name (which would make pickup_location ambiguous).
  name: 'Okhla Dispatch Centre',
  phone_number: '9876543210',
  email: 'okhla@acme.example',
  contact_person: 'Ravi Kumar',
  gst_no: '07AAACR5055K1Z9',
  address_attributes: {
    street_address: 'Plot 14, Okhla Industrial Estate Phase 3',
    zip: '110020',
    city: 'New Delhi',
    state: 'Delhi',
    country: 'India',
  },
};

export const CreateWarehouseBody = Type.Object(
  {
    name: Name(200, 'Pickup location name.'),
    phone_number: Phone,
    email: Type.Optional(Email),
    contact_person: Type.Optional(Name(200)),
    gst_no: Type.Optional(
      Type.String({
        pattern: '^(?:[0-9]{2}[A-Za-z]{5}[0-9]{4}[A-Za-z][1-9A-Za-z][Zz][0-9A-Za-z])?$',
        'x-error': 'must be a 15-character GSTIN such as 07AAACR5055K1Z9, or ""',
        description: 'GSTIN of the pickup location, printed on labels as the shipper\'s. Optional; "" means none.',
        examples: ['07AAACR5055K1Z9'],
      }),
    ),
    address_attributes: Type.Object(
      {
        street_address: Text(500),
        zip: Pincode,
        city: Text(100),
        state: Text(100),
        country: Text(100),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [OKHLA],
  },
);

export const CreateWarehouseResponse = Type.Object({
  status: Type.Literal('SUCCESS'),
  payload: Type.Object({
    warehouse_id: Uuid,
    warnings: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
        description:
          "Dakiya's addition, present only when there is something to say: a name the account already uses (pickup_location by it becomes ambiguous).",
      }),
    ),
  }),
});

export const Warehouse = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    phone_number: Type.String({ description: '10 digits.' }),
    email: Type.Union([Type.String(), Type.Null()]),
    contact_person: Type.Union([Type.String(), Type.Null()]),
    gst_no: Type.Union([Type.String(), Type.Null()], { description: 'GSTIN, upper case, or null.' }),
    address_attributes: Type.Object({
      street_address: Type.String(),
      zip: Type.String(),
      city: Type.String(),
      state: Type.String(),
      country: Type.String(),
    }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Warehouse' },
);

/**
 * GET /warehouse: Velocity integrations read a warehouse either as POST /warehouse takes it
 * (address_attributes) or flat (city, state, pincode, address), and its id as warehouse_id.
 */
export const VelocityWarehouse = Type.Object({
  ...Warehouse.properties,
  warehouse_id: { ...Uuid, description: 'The same as id: the value to send as warehouse_id on orders and returns.' },
  address: Type.String({ description: 'The street address (address_attributes.street_address).' }),
  city: Type.String(),
  state: Type.String(),
  pincode: Type.String({ description: '6 digits (address_attributes.zip).' }),
  country: Type.String(),
});
export const VelocityWarehouseList = Type.Object({
  status: Type.Literal('SUCCESS'),
  data: Type.Array(VelocityWarehouse, { description: "The account's warehouses, oldest first." }),
});

export const WarehouseEnvelope = Type.Object({ data: Type.Ref('Warehouse') });
export const WarehouseListEnvelope = Type.Object({ data: Type.Array(Type.Ref('Warehouse')) });
export const WarehouseIdParams = Type.Object({
  id: { ...Uuid, description: "The warehouse's id.", examples: [EXAMPLE.warehouseId] },
});

const WAREHOUSE_EXAMPLE = { id: EXAMPLE.warehouseId, ...OKHLA, created_at: '2026-11-20T06:30:00.000Z' };
const FLAT = {
  warehouse_id: EXAMPLE.warehouseId,
  address: OKHLA.address_attributes.street_address,
  city: 'New Delhi',
  state: 'Delhi',
  pincode: '110020',
  country: 'India',
};

export const WAREHOUSE_EXAMPLES = {
  velocityList: { status: 'SUCCESS', data: [{ ...WAREHOUSE_EXAMPLE, ...FLAT }] },
  created: { status: 'SUCCESS', payload: { warehouse_id: EXAMPLE.warehouseId } },
  one: { data: WAREHOUSE_EXAMPLE },
  list: { data: [WAREHOUSE_EXAMPLE] },
};
