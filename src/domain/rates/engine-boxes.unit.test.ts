import { describe, expect, it } from 'vitest';
import { dataPath, loadRatesContext, readJsonFile } from '../../data-files.js';
import type { PincodeEntry } from '../geo/pincodes.js';
import {
  type CatalogueFile,
  type CourierCatalogue,
  type MultiPieceCharge,
  parseCourierCatalogue,
} from './catalogue.js';
import { MAX_BOXES, quoteBoxes, type RateBox } from './engine-boxes.js';
import { quoteRates, type RateRequest, type RatesDeps } from './engine.js';

// Multi-piece quotes (issue 53): each box charged on its own slabs, or the boxes billed as one
// consignment where the catalogue says so; COD and QC once. Prices in rupees from data/couriers.json.

const ctx = loadRatesContext();
// Monday 15 June 2026, 10:00 India time: before every service's cut-off.
const NOW = new Date('2026-06-15T04:30:00Z');
const pin = (pincode: string): PincodeEntry => ctx.directory.lookup(pincode)!;

/** Delhi → Mumbai (zone C), forward, prepaid unless a COD value (rupees) is given. */
const lane = (cod?: number, journey: 'forward' | 'return' = 'forward'): RateRequest => ({
  journeyType: journey,
  origin: pin(journey === 'forward' ? '110001' : '400001'),
  destination: pin(journey === 'forward' ? '400001' : '110001'),
  // Not read by quoteBoxes: the boxes are what is charged.
  deadWeightGrams: 99_999,
  lengthCm: 1,
  widthCm: 1,
  heightCm: 1,
  paymentMethod: journey === 'forward' ? (cod === undefined ? 'prepaid' : 'cod') : undefined,
  shipmentValuePaise: cod === undefined ? undefined : cod * 100,
  qcApplicable: journey === 'return',
});
const box = (weightGrams: number, [lengthCm, breadthCm, heightCm] = [10, 10, 10]): RateBox => ({
  weightGrams,
  lengthCm,
  breadthCm,
  heightCm,
});
/** The rates context with every service charging multi-piece shipments by `charge`. */
const charging = (charge: MultiPieceCharge): RatesDeps => {
  const services = ctx.catalogue.services.map((service) => ({ ...service, multiPieceCharge: charge }));
  const catalogue: CourierCatalogue = { ...ctx.catalogue, services, byId: new Map(services.map((s) => [s.id, s])) };
  return { ...ctx, catalogue };
};
const rupees = (paise: number | null) => (paise === null ? null : paise / 100);

describe('quoteBoxes: hand-checked charges (rupees)', () => {
  // [case, deps, request, boxes, carrier, billed g, freight, rto, cod, total, per-box [billed g, freight]]
  const cases: [
    string,
    RatesDeps,
    RateRequest,
    RateBox[],
    string,
    number,
    number,
    number,
    number,
    number,
    [number, number | null][],
  ][] = [
    // Delhivery Surface, zone C: first 500 g ₹46, each further 500 g ₹43 (RTO the same).
    // 400 g → 46; 700 g → 46 + 43 = 89. Per box: 135 (one parcel of 1,100 g would be 46 + 2 × 43 = 132).
    [
      'two boxes, per box',
      ctx,
      lane(),
      [box(400), box(700)],
      'CARDELHSURF01',
      1100,
      135,
      135,
      0,
      135,
      [
        [400, 46],
        [700, 89],
      ],
    ],
    // 300 g in 30 × 20 × 10 cm is 1,200 g volumetric: 46 + 2 × 43 = 132; with a 400 g box (46): 178.
    [
      'a volumetric box',
      ctx,
      lane(),
      [box(300, [30, 20, 10]), box(400)],
      'CARDELHSURF01',
      1600,
      178,
      178,
      0,
      178,
      [
        [1200, 132],
        [400, 46],
      ],
    ],
    // The consignment rule: 400 + 700 = 1,100 g billed as one parcel: 46 + 2 × 43 = 132.
    [
      'two boxes, consignment',
      charging('consignment'),
      lane(),
      [box(400), box(700)],
      'CARDELHSURF01',
      1100,
      132,
      132,
      0,
      132,
      [
        [400, null],
        [700, null],
      ],
    ],
    // COD on ₹1,000 once: 1.75 % = ₹17.50, under the ₹35 floor → 35. 135 + 35.
    [
      'COD charged once',
      ctx,
      lane(1000),
      [box(400), box(700)],
      'CARDELHSURF01',
      1100,
      135,
      135,
      35,
      170,
      [
        [400, 46],
        [700, 89],
      ],
    ],
    // Delhivery 5 kg: minimum billed 5,000 g, first 1,000 g ₹54, each further 1,000 g ₹27.
    // Per box: 3,000 g billed 5,000 → 54 + 4 × 27 = 162, twice: 324.
    [
      'minimum billed weight per box',
      ctx,
      lane(),
      [box(3000), box(3000)],
      'CARDELH5KG001',
      10000,
      324,
      324,
      0,
      324,
      [
        [5000, 162],
        [5000, 162],
      ],
    ],
    // Consignment: 6,000 g (over the 5,000 g minimum) → 54 + 5 × 27 = 189.
    [
      'minimum billed weight, consignment',
      charging('consignment'),
      lane(),
      [box(3000), box(3000)],
      'CARDELH5KG001',
      6000,
      189,
      189,
      0,
      189,
      [
        [3000, null],
        [3000, null],
      ],
    ],
  ];

  it.each(cases)('%s', (_name, deps, request, boxes, carrier, billed, freight, rto, cod, total, parts) => {
    const quote = quoteBoxes(request, boxes, NOW, deps);
    const line = quote.couriers.find((c) => c.service.id === carrier)!;
    expect(line, `${carrier} quoted`).toBeDefined();
    expect(quote.boxCount).toBe(boxes.length);
    expect(line.billedWeight).toBe(billed);
    expect([rupees(line.freightPaise), rupees(line.rtoPaise), rupees(line.codPaise), rupees(line.totalPaise)]).toEqual([
      freight,
      rto,
      cod,
      total,
    ]);
    expect(line.multiPiece!.boxes.map((part) => [part.billedWeight, rupees(part.freightPaise)])).toEqual(parts);
    expect(line.multiPiece!.charge).toBe(deps === ctx ? 'per_box' : 'consignment');
  });

  it("the quote's weights are the boxes' sums: dead, volumetric, and each box's max of the two", () => {
    const quote = quoteBoxes(lane(), [box(300, [30, 20, 10]), box(400)], NOW, ctx);
    expect([quote.deadWeight, quote.volumetricWeight, quote.applicableWeight]).toEqual([700, 1400, 1600]);
    expect(quote.zone).toBe('C');
  });

  it('a return charges the reverse slabs per box and the QC fee once', () => {
    const quote = quoteBoxes(lane(undefined, 'return'), [box(400), box(700)], NOW, ctx);
    const single = quoteRates(
      { ...lane(undefined, 'return'), deadWeightGrams: 400, lengthCm: 10, widthCm: 10, heightCm: 10 },
      NOW,
      ctx,
    );
    const line = quote.couriers.find((c) => c.service.id === 'CARDELHSURF01')!;
    const one = single.couriers.find((c) => c.service.id === 'CARDELHSURF01')!;
    expect(line.qcPaise).toBe(one.qcPaise);
    expect(line.rtoPaise).toBe(0);
    expect(line.totalPaise).toBe(line.freightPaise + one.qcPaise);
    expect(line.freightPaise).toBe(
      one.freightPaise +
        quoteRates(
          { ...lane(undefined, 'return'), deadWeightGrams: 700, lengthCm: 10, widthCm: 10, heightCm: 10 },
          NOW,
          ctx,
        ).couriers.find((c) => c.service.id === 'CARDELHSURF01')!.freightPaise,
    );
  });
});

describe('quoteBoxes: which services carry the boxes', () => {
  it('a service carries the shipment only when every box is within its weights', () => {
    // Delhivery Air takes up to 10 kg a parcel, Surface 20 kg; Delhivery 5 kg from 3 kg.
    const ids = quoteBoxes(lane(), [box(12_000), box(400)], NOW, ctx).couriers.map((c) => c.service.id);
    expect(ids).toContain('CARDELHSURF01');
    expect(ids).not.toContain('CARDELHAIR001');
    expect(ids).not.toContain('CARDELH5KG001');
  });

  it('one box quotes what quoteRates quotes for that parcel', () => {
    const parcel = quoteRates(
      { ...lane(1000), deadWeightGrams: 700, lengthCm: 20, widthCm: 15, heightCm: 10 },
      NOW,
      ctx,
    );
    const boxes = quoteBoxes(lane(1000), [box(700, [20, 15, 10])], NOW, ctx);
    const strip = (q: typeof parcel) =>
      q.couriers.map(({ multiPiece: _, ...rest }) => ({ ...rest, service: rest.service.id }));
    expect(strip(boxes)).toEqual(strip(parcel));
    expect([boxes.deadWeight, boxes.volumetricWeight, boxes.applicableWeight]).toEqual([
      parcel.deadWeight,
      parcel.volumetricWeight,
      parcel.applicableWeight,
    ]);
  });

  it('cheapest total first, as quoteRates sorts', () => {
    const totals = quoteBoxes(lane(), [box(400), box(700)], NOW, ctx).couriers.map((c) => c.totalPaise);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
  });

  it.each([
    ['no box', []],
    [`${MAX_BOXES + 1} boxes`, Array.from({ length: MAX_BOXES + 1 }, () => box(400))],
    ['a box of 0 g', [box(400), box(0)]],
    ['a box with a NaN side', [box(400), box(400, [10, Number.NaN, 10])]],
  ])('%s → RangeError', (_name, boxes) => {
    expect(() => quoteBoxes(lane(), boxes, NOW, ctx)).toThrow(RangeError);
  });

  it('COD without a value → RangeError, as for one parcel', () => {
    expect(() => quoteBoxes({ ...lane(1000), shipmentValuePaise: undefined }, [box(400), box(700)], NOW, ctx)).toThrow(
      RangeError,
    );
  });
});

describe('the catalogue’s multi_piece_charge', () => {
  const file = readJsonFile(dataPath('couriers.json')) as CatalogueFile;
  const withCharge = (charge: unknown) => ({
    ...file,
    couriers: file.couriers.map((c, i) => (i === 0 ? { ...c, multi_piece_charge: charge } : c)),
  });

  it('is left out of every service of data/couriers.json (per_box): no courier’s own MPS rule was found', () => {
    expect(ctx.catalogue.services.every((s) => s.multiPieceCharge === undefined)).toBe(true);
  });

  it('compiles "consignment" and "per_box", and refuses anything else naming the courier and field', () => {
    expect(parseCourierCatalogue(withCharge('consignment')).services[0]!.multiPieceCharge).toBe('consignment');
    expect(parseCourierCatalogue(withCharge('per_box')).services[0]!.multiPieceCharge).toBe('per_box');
    expect(() => parseCourierCatalogue(withCharge('per_kg'))).toThrow(
      /couriers\[0\] \(CARDELHSURF01\) field "multi_piece_charge"/,
    );
  });
});
