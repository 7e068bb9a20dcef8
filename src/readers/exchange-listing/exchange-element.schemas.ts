import { type TObject, type TSchema, Type } from 'typebox';
import { EXCHANGE_STATUSES } from '../../domain/shipment/exchange-status.js';
import { Uuid } from '../../http/schemas.js';

// One exchange as POST /exchange-orders answers it (VELOCITY.md: Velocity's element, its legs
// nested as {data: {attributes}}). Inline in the answer's schema: no event carries an exchange.

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);
const Timestamp = Type.String({ format: 'date-time' });
const Rupees = Type.String({ pattern: '^\\d+\\.\\d{2}$', description: 'Rupees, two decimals, as a string.' });
const Carrier = Nullable(Type.Object({ id: Type.String(), name: Type.String() }));
const Weight = Type.Object({ value: Type.Number(), metric_unit: Type.Literal('g') });
const Item = Type.Object({
  id: Type.String(),
  quantity: Type.Integer(),
  price: Type.Number({ description: 'Rupees.' }),
  name: Type.String(),
  sku: Type.String(),
});
const Person = Type.Object({
  name: Type.String(),
  phone: Type.String(),
  city: Type.String(),
  state: Type.String(),
  zip: Type.String(),
});

/** Velocity's nesting of a related record: {data: {id, type, attributes}}. */
const related = (type: string, attributes: TObject, description: string) =>
  Type.Object(
    { data: Type.Object({ id: Uuid, type: Type.Literal(type), attributes }) },
    {
      description: `${description} As Velocity nests it: {data: {attributes}}; unique_id is the id other routes take.`,
    },
  );

const ShipmentLeg = {
  unique_id: Uuid,
  tracking_number: Nullable(Type.String({ description: 'The AWB; null until a courier is booked.' })),
  status: Type.String(),
  sub_status: Nullable(Type.String()),
  carrier: Carrier,
  warehouse_id: Nullable(Uuid),
  zone: Type.String({ description: 'zone_a … zone_e' }),
  applied_weight: Weight,
  picked_up_at: Nullable(Timestamp),
  delivered_at: Nullable(Timestamp),
};

export const ExchangeElement = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('exchange_order'),
    attributes: Type.Object({
      display_id: Type.String({ description: 'The order_id the exchange was booked with.' }),
      unique_id: Type.String({ description: "Velocity's short reference of the exchange (EX and 10 characters)." }),
      status: Type.Enum(EXCHANGE_STATUSES, {
        description:
          "Read from its legs at each read (docs/returns.md, Exchanges); Velocity's new exchange is pending.",
      }),
      channel: Type.String(),
      return_reason: Type.String(),
      created_at: Timestamp,
      updated_at: Type.String({
        format: 'date-time',
        description: "The latest change to the exchange or either leg (the exchange's status moves with its legs).",
      }),
      qc_failed: Type.Boolean({
        description: "Dakiya's addition: the old item failed its quality check at pickup (flagged for the merchant).",
      }),
      qc_failed_at: Nullable(Timestamp),
      replacement_held: Type.Boolean({
        description:
          "Dakiya's addition: the replacement waits on its release (labels and pickups refuse it until then).",
      }),
      release_on: Type.String({
        description: "Dakiya's addition: when the replacement may go: at_once, return_picked_up or qc_passed.",
      }),
      fare_breakup: Type.Object(
        {
          total: Rupees,
          forward: Type.Object({ forward_charges: Rupees, forward_cod_charges: Rupees, forward_rto_charges: Rupees }),
          reverse: Type.Object({ return_pickup_charges: Rupees, qc_charges: Rupees, exchange_charges: Rupees }),
        },
        {
          description:
            "The booking's charges as the exchange's answer gives them: total is the forward freight, its COD fee, the return " +
            'pickup, the QC charge and the exchange fee; the RTO charge is shown and counted only if the replacement comes back. ' +
            'A leg not booked with a courier yet counts 0.',
        },
      ),
      order: related(
        'order',
        Type.Object({
          unique_id: Uuid,
          display_id: Type.String(),
          order_date: Timestamp,
          channel: Type.String(),
          store_name: Nullable(Type.String()),
          payment_method: Type.String({ description: 'COD or PREPAID.' }),
          is_cod: Type.Boolean(),
          cod_amount: Type.Number({ description: 'Rupees to collect; 0 for prepaid.' }),
          total_price: Type.Number({ description: 'Order value, rupees.' }),
          customer: Person,
          items: Type.Array(Item),
        }),
        'The replacement order.',
      ),
      forward_shipment: related('shipment', Type.Object(ShipmentLeg), 'The replacement going to the buyer.'),
      return: related(
        'return',
        Type.Object({
          unique_id: Uuid,
          display_id: Type.String(),
          status: Type.String(),
          qc_enabled: Type.Boolean(),
          qc_status: Nullable(
            Type.String({ description: 'passed or failed, as the courier reported; null until then.' }),
          ),
          qc_reason: Nullable(Type.String()),
          pickup_address: Person,
          items: Type.Array(Item),
        }),
        'The return of the old item.',
      ),
      return_shipment: related('shipment', Type.Object(ShipmentLeg), "The old item's pickup (its shipment_id)."),
    }),
  },
  { description: 'One exchange: the exchange itself, its charges and both legs.' },
);

export const ListExchangesResponse = Type.Object({
  data: Type.Array(ExchangeElement),
  meta: Type.Object({
    total: Type.Integer({ description: 'Exact number of exchanges matching the filters.' }),
    page: Type.Integer(),
    current_page: Type.Integer({ description: 'page, as the shipment and return listings name it.' }),
    per_page: Type.Integer(),
    total_pages: Type.Integer({ description: 'ceil(total / per_page): 0 when nothing matches.' }),
  }),
});
