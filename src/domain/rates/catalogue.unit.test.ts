import { describe, expect, it } from 'vitest';
import { ZONES } from '../geo/zones.js';
import { type CatalogueFile, parseCourierCatalogue } from './catalogue.js';
import { dataPath, readJsonFile, loadPincodeDirectory, loadCourierCatalogue } from '../../data-files.js';

const directory = loadPincodeDirectory();
const catalogue = loadCourierCatalogue(undefined, directory);
const rawFile = readJsonFile(dataPath('couriers.json')) as CatalogueFile;

describe('data/couriers.json', () => {
  it('offers at least 10 services with well-formed, unique ids and codes', () => {
    expect(catalogue.services.length).toBeGreaterThanOrEqual(10);
    for (const service of catalogue.services) expect(service.id).toMatch(/^CAR[A-Z0-9]{10}$/);
    expect(new Set(catalogue.services.map((s) => s.id)).size).toBe(catalogue.services.length);
    expect(new Set(catalogue.services.map((s) => s.code)).size).toBe(catalogue.services.length);
  });

  it('compiles rupees into integer paise and the cut-off into minutes', () => {
    const service = catalogue.byId.get('CARDELHSURF01');
    expect(service).toMatchObject({
      name: 'Delhivery Surface',
      codFixedPaise: 3500,
      codBasisPoints: 175,
      qcFeePaise: 1500,
      pickupCutoffMinutes: 14 * 60,
      firstSlabGrams: 500,
      additionalSlabGrams: 500,
    });
    expect(service?.forward.A).toEqual({ firstPaise: 3600, additionalPaise: 3400 });
    expect(service?.unserviceableStates.has('Lakshadweep')).toBe(true);
  });

  const standardSurface = catalogue.services.filter((s) => s.serviceLevel === 'surface' && s.firstSlabGrams === 500);
  it.each(standardSurface.map((s) => [s.name, s] as const))('%s is priced like the 2026 market', (_, service) => {
    expect(service.forward.A.firstPaise).toBeGreaterThanOrEqual(3000);
    expect(service.forward.A.firstPaise).toBeLessThanOrEqual(4500);
    expect(service.forward.E.firstPaise).toBeGreaterThanOrEqual(6000);
    expect(service.forward.E.firstPaise).toBeLessThanOrEqual(9000);
  });

  it.each(catalogue.services.map((s) => [s.name, s] as const))(
    '%s: reverse costs more than forward, and zones rise A→E',
    (_, service) => {
      for (const zone of ZONES) {
        expect(service.reverse[zone].firstPaise).toBeGreaterThan(service.forward[zone].firstPaise);
        expect(service.reverse[zone].additionalPaise).toBeGreaterThanOrEqual(service.forward[zone].additionalPaise);
      }
      for (let i = 1; i < ZONES.length; i++) {
        const [lower, higher] = [ZONES[i - 1] as (typeof ZONES)[number], ZONES[i] as (typeof ZONES)[number]];
        expect(service.forward[higher].firstPaise).toBeGreaterThan(service.forward[lower].firstPaise);
        expect(service.transitDays[higher]).toBeGreaterThanOrEqual(service.transitDays[lower]);
      }
    },
  );

  it('varies serviceability: some services skip regions, some refuse COD somewhere, only some offer QC', () => {
    const services = catalogue.services;
    expect(services.filter((s) => s.unserviceableStates.size > 0).length).toBeGreaterThanOrEqual(3);
    expect(services.filter((s) => s.unserviceableStates.size === 0).length).toBeGreaterThanOrEqual(1);
    expect(services.filter((s) => s.codUnavailableStates.size > 0).length).toBeGreaterThanOrEqual(3);
    expect(services.filter((s) => s.qcFeePaise === null).length).toBeGreaterThanOrEqual(2);
    expect(services.filter((s) => s.qcFeePaise !== null).length).toBeGreaterThanOrEqual(2);
    // Velocity offers QC returns with Delhivery and Shadowfax only.
    expect(services.filter((s) => s.qcCapable).map((s) => s.id)).toEqual([
      'CARDELHSURF01',
      'CARDELHAIR001',
      'CARSHFXSTD001',
    ]);
    expect(services.filter((s) => s.minBilledWeightGrams > s.firstSlabGrams).length).toBeGreaterThanOrEqual(1);
    expect(new Set(services.map((s) => s.serviceLevel))).toEqual(new Set(['surface', 'air']));
  });
});

describe('catalogue validation', () => {
  type Json = Record<string, unknown>;
  type Mutation = (file: Json) => void;
  // Dotted paths into a clone of the shipped file, so each case changes exactly one thing.
  const locate = (file: Json, path: string): [Json, string] => {
    const keys = path.split('.');
    const last = keys.pop() as string;
    const parent = keys.reduce<Json>((node, key) => node[key] as Json, file);
    return [parent, last];
  };
  const set =
    (path: string, value: unknown): Mutation =>
    (file) => {
      const [parent, key] = locate(file, path);
      parent[key] = value;
    };
  const remove =
    (path: string): Mutation =>
    (file) => {
      const [parent, key] = locate(file, path);
      delete parent[key];
    };
  const append =
    (path: string, value: unknown): Mutation =>
    (file) => {
      const [parent, key] = locate(file, path);
      (parent[key] as unknown[]).push(value);
    };

  const cases: [string, Mutation, string][] = [
    ['bad id', set('couriers.0.id', 'CAR123'), 'couriers[0] (CAR123) field "id": must match pattern'],
    ['missing name', remove('couriers.1.name'), 'couriers[1] (CARDELHAIR001) field "name": is required'],
    [
      'unknown service level',
      set('couriers.2.service_level', 'rail'),
      'couriers[2] (CARDELH5KG001) field "service_level": must be one of "surface", "air"',
    ],
    [
      'negative price',
      set('couriers.3.prices.forward.C.first', -1),
      'couriers[3] (CARDELH10KG01) field "prices.forward.C.first": must be >= 0',
    ],
    [
      'missing zone',
      remove('couriers.4.prices.rto.E'),
      'couriers[4] (CARXPBSSTD001) field "prices.rto.E": is required',
    ],
    [
      'zero first slab',
      set('couriers.5.first_slab_weight', 0),
      'couriers[5] (CARXPBS250G01) field "first_slab_weight": must be >= 1',
    ],
    [
      'fractional grams',
      set('couriers.6.max_weight', 1500.5),
      'couriers[6] (CAREKRTSTD001) field "max_weight": must be integer',
    ],
    [
      'qc as text',
      set('couriers.7.qc_fee', 'free'),
      'couriers[7] (CARDTDCSTD001) field "qc_fee": must be number or null',
    ],
    [
      'bad cut-off',
      set('couriers.8.pickup_cutoff', '25:00'),
      'couriers[8] (CARBLDTAIR001) field "pickup_cutoff": must match pattern',
    ],
    [
      'unknown field',
      set('couriers.9.discount', 5),
      'couriers[9] (CARBLDTSURF01) field "discount": is not a known field',
    ],
    [
      'duplicate id',
      set('couriers.1.id', 'CARDELHSURF01'),
      'couriers[1] (CARDELHSURF01) field "id": duplicate of couriers[0]',
    ],
    [
      'duplicate code',
      set('couriers.2.code', 'delhivery-air'),
      'couriers[2] (CARDELH5KG001) field "code": duplicate of couriers[1]',
    ],
    [
      'min over max',
      set('couriers.10.min_weight', 20000),
      'couriers[10] (CARSHFXSTD001) field "min_weight": must not exceed max_weight',
    ],
    [
      'min billed over max',
      set('couriers.11.min_billed_weight', 20000),
      'couriers[11] (CARAMZNSTD001) field "min_billed_weight": must not exceed max_weight',
    ],
    [
      'fraction of a paisa',
      set('couriers.0.platform_fee', 1.005),
      'couriers[0] (CARDELHSURF01) field "platform_fee": 1.005 has more than two decimals',
    ],
    [
      'qc_capable missing',
      remove('couriers.0.qc_capable'),
      'couriers[0] (CARDELHSURF01) field "qc_capable": is required',
    ],
    [
      'QC-capable without a QC fee',
      set('couriers.10.qc_fee', null),
      'couriers[10] (CARSHFXSTD001) field "qc_fee": is required (a number) when qc_capable is true',
    ],
    [
      'a QC fee on a service that is not QC-capable',
      set('couriers.4.qc_fee', 12),
      'couriers[4] (CARXPBSSTD001) field "qc_fee": must be null when qc_capable is false',
    ],
    [
      'misspelt state',
      append('couriers.0.unserviceable_states', 'Kerela'),
      'couriers[0] (CARDELHSURF01) field "unserviceable_states.1": unknown state "Kerela"',
    ],
    [
      'duplicate state',
      append('couriers.0.cod_unavailable_states', 'Andaman and Nicobar Islands'),
      'couriers[0] (CARDELHSURF01) field "cod_unavailable_states.1": duplicate state',
    ],
    ['courier without id', remove('couriers.3.id'), 'couriers[3] field "id": is required'],
    ['empty catalogue', set('couriers', []), 'field "couriers": must not have fewer than 1 items'],
    [
      'bad prefix',
      set('unserviceable_pincode_prefixes', ['APS']),
      'field "unserviceable_pincode_prefixes.0": must match pattern',
    ],
  ];

  it.each(cases)('%s → names the courier and field', (_, mutate, message) => {
    const file = structuredClone(rawFile) as unknown as Json;
    mutate(file);
    expect(() => parseCourierCatalogue(file, 'data/couriers.json', directory)).toThrow(message);
    expect(() => parseCourierCatalogue(file, 'data/couriers.json', directory)).toThrow(
      /^Invalid courier catalogue data\/couriers\.json:/,
    );
  });

  it('accepts the shipped file unchanged', () => {
    expect(() => parseCourierCatalogue(structuredClone(rawFile), 'x', directory)).not.toThrow();
  });

  it('refuses a file that is not JSON with its path', () => {
    expect(() => loadCourierCatalogue(dataPath('india-pincodes.csv'))).toThrow(/india-pincodes\.csv is not valid JSON/);
    expect(() => loadCourierCatalogue(dataPath('missing.json'))).toThrow(/Cannot read .*missing\.json/);
  });
});

describe('the connector field', () => {
  it('ships every service on the sandbox (a fresh install books test shipments that move), and reads a missing connector as push', () => {
    expect(catalogue.services.every((service) => service.connector === 'sandbox' && service.awbSeries === null)).toBe(
      true,
    );
    const file = structuredClone(rawFile);
    delete file.couriers[0]!.connector;
    file.couriers[1]!.connector = 'delhivery';
    file.couriers[2]!.connector = 'sandbox';
    const parsed = parseCourierCatalogue(file, 'x', directory);
    expect(parsed.services.slice(0, 3).map((s) => s.connector)).toEqual(['push', 'delhivery', 'sandbox']);
  });

  it('reads an allotted awb_series, and refuses one whose letters or lengths differ, that runs backwards, or on a service that is not push', () => {
    const file = structuredClone(rawFile) as unknown as { couriers: Record<string, unknown>[] };
    file.couriers[0]!.connector = 'push';
    file.couriers[0]!.awb_series = { first: 'XB000100', last: 'XB000250' };
    expect(parseCourierCatalogue(file, 'x', directory).services[0]!.awbSeries).toEqual({
      prefix: 'XB',
      first: 100,
      last: 250,
      digits: 6,
    });
    const refused = (series: unknown, connector = 'push') => {
      const bad = structuredClone(file);
      bad.couriers[1]!.connector = connector;
      bad.couriers[1]!.awb_series = series;
      return () => parseCourierCatalogue(bad, 'data/couriers.json', directory);
    };
    expect(refused({ first: 'XB001000', last: 'XC001999' })).toThrow(
      'couriers[1] (CARDELHAIR001) field "awb_series.last": must have the same letters and as many digits as awb_series.first',
    );
    expect(refused({ first: 'XB001000', last: 'XB0001999' })).toThrow(
      'couriers[1] (CARDELHAIR001) field "awb_series.last": must have the same letters and as many digits as awb_series.first',
    );
    expect(refused({ first: 'XB002000', last: 'XB001999' })).toThrow(
      'couriers[1] (CARDELHAIR001) field "awb_series.last": must not come before awb_series.first',
    );
    expect(refused({ first: '1410000001', last: '1410009999' }, 'sandbox')).toThrow(
      'couriers[1] (CARDELHAIR001) field "awb_series": applies to push services only (the sandbox connector issues its own AWBs)',
    );
    expect(refused({ first: 'xb1', last: 'XB9' })).toThrow('couriers[1] (CARDELHAIR001) field "awb_series.first"');
  });

  it('refuses an unknown connector, naming the service', () => {
    const file = structuredClone(rawFile) as unknown as { couriers: Record<string, unknown>[] };
    file.couriers[1]!.connector = 'bluedart';
    expect(() => parseCourierCatalogue(file, 'data/couriers.json', directory)).toThrow(
      'couriers[1] (CARDELHAIR001) field "connector"',
    );
  });
});
