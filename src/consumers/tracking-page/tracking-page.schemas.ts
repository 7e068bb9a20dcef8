import { Type } from 'typebox';
import { SHIPMENT_STATUSES } from '../../domain/shipment/status-machine.js';
import { LANGUAGES } from '../../domain/buyer-copy/page-text.js';
import { RETURN_STATUSES } from '../../domain/shipment/return-status-machine.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

// No pattern on the token: a malformed link gets the same "not found" page as an unknown one.
export const TokenParams = Type.Object({
  token: Type.String({
    description: 'The token of a tracking link (track_url).',
    examples: ['q2Xn8V0bTgK4mYc1Pz7wAa'],
  }),
});

// Other query parameters are ignored: links pasted in messages collect utm_* and the like.
export const PageQuery = Type.Object({
  lang: Type.Optional(
    Type.String({
      maxLength: 16,
      description:
        '`en`, `hi`, `mr`, `bn`, `gu`, `ta`, `te`, `kn` or `ml`: it wins (and the page remembers it). Without it (or with ' +
        "another value): the language last picked on a page, else the order's or store's `language`, else the browser's " +
        "Accept-Language among these (English included), else the shipping state's language, else English.",
      examples: ['hi'],
    }),
  ),
});

const TimelineEntry = Type.Object({
  at: Type.String({ format: 'date-time' }),
  at_india: Type.String({
    description: 'The same instant written for the customer, India time, in the page language.',
  }),
  status: Type.String({
    description: '`order_placed`, `shipped` (a courier and AWB assigned), or the status a courier scan reported.',
  }),
  text: Type.String({ description: 'In plain words, in the page language.' }),
  location: Nullable(
    Type.String({
      description:
        "Where the courier scanned it: the courier's place name as written, or, for the sandbox's words (Origin hub, " +
        'Destination hub, Origin, Destination), their translation in the page language.',
    }),
  ),
});

export const TrackingJson = Type.Object(
  {
    kind: Type.String({
      enum: ['shipment', 'return'],
      description: 'A forward shipment, or a return the courier collects from the customer.',
    }),
    language: Type.String({ enum: [...LANGUAGES] }),
    track_url: Type.String({ format: 'uri' }),
    brand: Type.Object({
      name: Type.String({
        description: "The linked store's brand name; the account's name when no store (or no brand name) is linked.",
      }),
      logo_url: Nullable(Type.String({ format: 'uri' })),
    }),
    status: Type.String({
      enum: [...SHIPMENT_STATUSES, ...RETURN_STATUSES],
      description: "The shipment status (SPEC 3), or a return's (return_*).",
    }),
    status_text: Type.String(),
    status_detail: Type.String(),
    promised_delivery_date: Nullable(
      Type.String({
        format: 'date',
        description:
          'India date promised at booking, while the parcel is on its way or delivered; null once there is none to promise ' +
          '(lost, damaged or held, going back to the seller, cancelled) and for a return.',
      }),
    ),
    delivered_at: Nullable(Type.String({ format: 'date-time' })),
    customer: Type.Object(
      { first_name: Type.String(), city: Type.String() },
      { description: 'No more than this of the customer: anyone holding the link can read the page.' },
    ),
    courier: Nullable(Type.Object({ name: Type.String(), awb: Type.String() })),
    test_mode: Type.Boolean({
      description:
        'true for a test booking (an AWB no courier issued): no courier will carry the parcel; the page says so.',
    }),
    support: Type.Object({ email: Nullable(Type.String()), phone: Nullable(Type.String()) }),
    timeline: Type.Array(TimelineEntry, { description: 'Newest first: booking milestones and courier scans.' }),
    reattempt: Type.Object(
      {
        available: Type.Boolean({
          description: 'The customer may ask for another delivery attempt now (on the HTML page).',
        }),
        dates: Type.Array(Type.String({ format: 'date' }), {
          description: 'The days offered: the next 3 working days.',
        }),
        requested: Type.Boolean({ description: 'A reattempt is already asked for this failed delivery.' }),
        requested_date: Nullable(Type.String({ format: 'date' })),
      },
      { description: 'After a failed delivery (ndr_raised).' },
    ),
  },
  {
    examples: [
      {
        kind: 'shipment',
        language: 'en',
        track_url: 'https://ship.example.in/t/q2Xn8V0bTgK4mYc1Pz7wAa',
        brand: {
          name: 'Acme Apparel',
          logo_url:
            'https://ship.example.in/public/v1/store-logos/3b9e2f4a-7c1d-4e8b-9a6f-2d5c8b1e0f37?v=9f86d081884c7d65',
        },
        status: 'in_transit',
        status_text: 'On its way',
        status_detail: 'Your parcel is travelling to your city.',
        promised_delivery_date: '2026-11-25',
        delivered_at: null,
        customer: { first_name: 'Asha', city: 'Mumbai' },
        courier: { name: 'Shadowfax Surface', awb: 'SFX0000000001' },
        test_mode: false,
        support: { email: 'help@acmeapparel.in', phone: '1800-123-4567' },
        timeline: [
          {
            at: '2026-11-20T10:00:00.000Z',
            at_india: '20 Nov 2026, 3:30 pm',
            status: 'in_transit',
            text: 'On its way',
            location: 'Okhla Hub',
          },
          {
            at: '2026-11-20T06:30:00.000Z',
            at_india: '20 Nov 2026, 12:00 pm',
            status: 'shipped',
            text: 'Courier booked',
            location: null,
          },
          {
            at: '2026-11-20T06:30:00.000Z',
            at_india: '20 Nov 2026, 12:00 pm',
            status: 'order_placed',
            text: 'Order placed',
            location: null,
          },
        ],
        reattempt: { available: false, dates: [], requested: false, requested_date: null },
      },
    ],
  },
);

export const HtmlPage = Type.String({ description: 'The HTML page (text/html; charset=utf-8).' });

export const ReattemptForm = Type.Object({
  csrf: Type.String({ maxLength: 300 }),
  reattempt_date: Type.Optional(Type.String({ maxLength: 10 })),
  landmark: Type.Optional(Type.String({ maxLength: 200 })),
  phone: Type.Optional(Type.String({ maxLength: 20 })),
});

export const RefuseForm = Type.Object({
  csrf: Type.String({ maxLength: 300 }),
  confirm: Type.Optional(Type.String({ maxLength: 10 })),
});
