import { type Static, type TSchema, Type } from 'typebox';
import { DataFileError, formatIssues, pointerToField, schemaIssues } from '../data-file-issues.js';
import type { PincodeDirectory } from '../geo/pincodes.js';
import { ZONES, type Zone } from '../geo/zones.js';
import { hasAtMostTwoDecimals, rupeesToPaise } from '../money.js';
import { compileRemittanceCycle, type RemittanceCycle, RemittanceCycleSchema } from './remittance-cycle.js';

/** The connectors a service may name: push (the courier posts scans), sandbox (simulated), delhivery, ekart, xpressbees, shadowfax. */
export const CONNECTOR_NAMES = ['push', 'sandbox', 'delhivery', 'ekart', 'xpressbees', 'shadowfax'] as const;
export type ConnectorName = (typeof CONNECTOR_NAMES)[number];

// Amounts in the file are rupees (what an operator reads on a rate card); weights are grams.
const Rupees = Type.Number({ minimum: 0 });
const SlabPrice = Type.Object({ first: Rupees, additional: Rupees }, { additionalProperties: false });
const perZone = <T extends TSchema>(schema: T) =>
  Type.Object({ A: schema, B: schema, C: schema, D: schema, E: schema }, { additionalProperties: false });
const StateList = Type.Array(Type.String({ minLength: 1 }));
/** An allotted waybill: up to four capital letters, then 6 to 15 digits (a safe integer). */
const AWB_SERIES_NUMBER = '^[A-Z]{0,4}[0-9]{6,15}$';

export const CourierSchema = Type.Object(
  {
    id: Type.String({ pattern: '^CAR[A-Z0-9]{10}$' }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    code: Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 40 }),
    // Starts every AWB of the service; unique, so AWBs are unique across couriers.
    awb_prefix: Type.String({ pattern: '^[A-Z][A-Z0-9]{1,4}$' }),
    // How Dakiya talks to the courier (docs/couriers.md, "Connectors"); push when left out.
    connector: Type.Optional(
      Type.Union([
        Type.Literal('push'),
        Type.Literal('sandbox'),
        Type.Literal('delhivery'),
        Type.Literal('ekart'),
        Type.Literal('xpressbees'),
        Type.Literal('shadowfax'),
      ]),
    ),
    // The waybill numbers the courier allotted to this merchant (couriers do so for large shippers),
    // first to last; a push service draws its AWBs from it. Without one, a push service's AWBs are
    // numbers no courier issued, and its bookings are test bookings.
    awb_series: Type.Optional(
      Type.Object(
        { first: Type.String({ pattern: AWB_SERIES_NUMBER }), last: Type.String({ pattern: AWB_SERIES_NUMBER }) },
        { additionalProperties: false },
      ),
    ),
    service_level: Type.Union([Type.Literal('surface'), Type.Literal('air')]),
    is_fast: Type.Boolean(),
    is_prime: Type.Boolean(),
    platform_fee: Rupees,
    min_weight: Type.Integer({ minimum: 0 }),
    max_weight: Type.Integer({ minimum: 1 }),
    min_billed_weight: Type.Integer({ minimum: 0 }),
    first_slab_weight: Type.Integer({ minimum: 1 }),
    additional_slab_weight: Type.Integer({ minimum: 1 }),
    prices: Type.Object(
      { forward: perZone(SlabPrice), rto: perZone(SlabPrice), reverse: perZone(SlabPrice) },
      { additionalProperties: false },
    ),
    cod: Type.Object(
      { fixed: Rupees, percent: Type.Number({ minimum: 0, maximum: 100 }) },
      { additionalProperties: false },
    ),
    // Velocity offers QC returns only with some couriers (Delhivery and Shadowfax): the flag says which.
    qc_capable: Type.Boolean(),
    qc_fee: Type.Union([Rupees, Type.Null()]),
    transit_days: perZone(Type.Integer({ minimum: 0, maximum: 60 })),
    pickup_cutoff: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }),
    unserviceable_states: StateList,
    cod_unavailable_states: StateList,
    // When the courier pays out COD cash (remittance-cycle.ts); "D+7" when left out.
    remittance: Type.Optional(RemittanceCycleSchema),
    // How a multi-piece shipment is charged (engine-boxes.ts quoteBoxes; docs/couriers.md): each box on
    // its own slabs ("per_box"), or the boxes' chargeable weights summed and billed as one parcel
    // ("consignment"). "per_box" when left out.
    multi_piece_charge: Type.Optional(Type.Union([Type.Literal('per_box'), Type.Literal('consignment')])),
  },
  { additionalProperties: false },
);

export const CatalogueFileSchema = Type.Object(
  {
    unserviceable_pincode_prefixes: Type.Array(Type.String({ pattern: '^[0-9]{1,6}$' })),
    couriers: Type.Array(CourierSchema, { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type CatalogueFile = Static<typeof CatalogueFileSchema>;
export type CourierFileEntry = Static<typeof CourierSchema>;

export interface SlabPricePaise {
  readonly firstPaise: number;
  readonly additionalPaise: number;
}
export type ZonePrices = Readonly<Record<Zone, SlabPricePaise>>;

/** A courier service as the engine uses it: integer paise, grams and minutes. */
export interface CourierService {
  readonly id: string;
  readonly name: string;
  readonly code: string;
  readonly awbPrefix: string;
  readonly connector: ConnectorName;
  /** The courier's allotted AWB series (a push service draws from it), or null. */
  readonly awbSeries: AwbSeries | null;
  /**
   * Its connector speaks the courier's API to a local simulator of it, not to the courier (`npm run
   * demo`): no courier issued its AWBs. Only a composition that starts simulators sets it
   * (couriers/with-connectors.ts); the couriers file cannot, so no real booking is ever marked test.
   */
  readonly simulated?: true;
  readonly serviceLevel: 'surface' | 'air';
  readonly isFast: boolean;
  readonly isPrime: boolean;
  readonly platformFeePaise: number;
  readonly minWeightGrams: number;
  readonly maxWeightGrams: number;
  readonly minBilledWeightGrams: number;
  readonly firstSlabGrams: number;
  readonly additionalSlabGrams: number;
  readonly forward: ZonePrices;
  readonly rto: ZonePrices;
  readonly reverse: ZonePrices;
  readonly codFixedPaise: number;
  /** COD percentage in hundredths of a percent (1.75 % → 175), so the fee stays integer. */
  readonly codBasisPoints: number;
  /** Whether the service carries quality-checked returns; exactly when qcFeePaise is not null. */
  readonly qcCapable: boolean;
  /** Null when the service offers no quality check on return pickups. */
  readonly qcFeePaise: number | null;
  readonly transitDays: Readonly<Record<Zone, number>>;
  readonly pickupCutoff: string;
  /** Minutes after midnight, India time. */
  readonly pickupCutoffMinutes: number;
  readonly unserviceableStates: ReadonlySet<string>;
  readonly codUnavailableStates: ReadonlySet<string>;
  /** When the courier pays out the COD cash it collected. */
  readonly remittanceCycle: RemittanceCycle;
  /**
   * How it charges a multi-piece shipment: each box on its own slabs (`per_box`), or the boxes'
   * chargeable weights summed and billed as one parcel (`consignment`). Left out: `per_box`.
   */
  readonly multiPieceCharge?: MultiPieceCharge;
}

export type MultiPieceCharge = 'per_box' | 'consignment';

/** `prefix` then `first`…`last`, written with `digits` digits (leading zeros kept). */
export interface AwbSeries {
  readonly prefix: string;
  readonly first: number;
  readonly last: number;
  readonly digits: number;
}

function splitAwb(awb: string) {
  const [, prefix = '', digits = ''] = /^([A-Z]*)([0-9]+)$/.exec(awb) ?? [];
  return { prefix, digits };
}

/** The n-th waybill of a series (n from 1), or null past its last. */
export function awbOfSeries(series: AwbSeries, n: number): string | null {
  const value = series.first + n - 1;
  return value > series.last ? null : `${series.prefix}${String(value).padStart(series.digits, '0')}`;
}

/**
 * Whether a service's bookings are test bookings, with waybills no courier issued: the sandbox's, a
 * push service's without a series the courier allotted, and a courier API's connector pointed at a
 * simulator. A pulled courier (delhivery) issues its own.
 */
export function issuesTestAwbs(service: Pick<CourierService, 'connector' | 'awbSeries' | 'simulated'>): boolean {
  return (
    service.simulated === true ||
    service.connector === 'sandbox' ||
    (service.connector === 'push' && service.awbSeries === null)
  );
}

/** Whether a catalogue's service books test shipments (an unknown id is not one: nothing books on it). */
export function isTestService(catalogue: CourierCatalogue, carrierId: string): boolean {
  const service = catalogue.byId.get(carrierId);
  return service !== undefined && issuesTestAwbs(service);
}

export interface CourierCatalogue {
  readonly services: readonly CourierService[];
  readonly byId: ReadonlyMap<string, CourierService>;
  readonly unserviceablePincodePrefixes: readonly string[];
}

/**
 * Validates the whole file before using any of it: a bad catalogue must stop start-up with a
 * message naming the courier and the field, not surface later as a wrong price.
 */
export function parseCourierCatalogue(
  json: unknown,
  source = 'couriers.json',
  directory?: Pick<PincodeDirectory, 'states'>,
): CourierCatalogue {
  const header = `Invalid courier catalogue ${source}:`;
  const issues = schemaIssues(CatalogueFileSchema, json);
  if (issues.length > 0) {
    throw new DataFileError(
      formatIssues(
        header,
        issues.map((issue) => describeIssue(json, issue.path, issue.message)),
      ),
    );
  }
  const file = json as CatalogueFile;
  const problems = crossFieldProblems(file, directory);
  if (problems.length > 0) throw new DataFileError(formatIssues(header, problems));

  const services = file.couriers.map(compileService);
  return {
    services,
    byId: new Map(services.map((service) => [service.id, service])),
    unserviceablePincodePrefixes: file.unserviceable_pincode_prefixes,
  };
}

function courierLabel(json: unknown, index: number): string {
  const couriers = (json as { couriers?: unknown } | null)?.couriers;
  const id = Array.isArray(couriers) ? (couriers[index] as { id?: unknown } | null)?.id : undefined;
  return typeof id === 'string' && id !== '' ? `couriers[${index}] (${id})` : `couriers[${index}]`;
}

function describeIssue(json: unknown, pointer: string, message: string): string {
  const match = /^\/couriers\/(\d+)(\/.*)?$/.exec(pointer);
  if (match?.[2] !== undefined) {
    const field = pointerToField(match[2]);
    return `${courierLabel(json, Number(match[1]))} field "${field}": ${message}`;
  }
  if (match !== null) return `${courierLabel(json, Number(match[1]))}: ${message}`;
  return `field "${pointerToField(pointer) || '(root)'}": ${message}`;
}

/** Rules a JSON Schema cannot state: uniqueness, orderings, paise precision, known states. */
function crossFieldProblems(file: CatalogueFile, directory?: Pick<PincodeDirectory, 'states'>): string[] {
  const problems: string[] = [];
  const ids = new Map<string, number>();
  const codes = new Map<string, number>();
  const prefixes = new Map<string, number>();
  file.couriers.forEach((courier, index) => {
    const where = `couriers[${index}] (${courier.id})`;
    const fail = (field: string, message: string) => problems.push(`${where} field "${field}": ${message}`);

    const sameId = ids.get(courier.id);
    if (sameId !== undefined) fail('id', `duplicate of couriers[${sameId}]`);
    ids.set(courier.id, index);
    const sameCode = codes.get(courier.code);
    if (sameCode !== undefined) fail('code', `duplicate of couriers[${sameCode}]`);
    codes.set(courier.code, index);
    const samePrefix = prefixes.get(courier.awb_prefix);
    if (samePrefix !== undefined) fail('awb_prefix', `duplicate of couriers[${samePrefix}]`);
    prefixes.set(courier.awb_prefix, index);

    if (courier.awb_series) {
      const first = splitAwb(courier.awb_series.first);
      const last = splitAwb(courier.awb_series.last);
      if (first.prefix !== last.prefix || first.digits.length !== last.digits.length) {
        fail('awb_series.last', 'must have the same letters and as many digits as awb_series.first');
      } else if (Number(first.digits) > Number(last.digits)) {
        fail('awb_series.last', 'must not come before awb_series.first');
      }
      if (courier.connector !== undefined && courier.connector !== 'push') {
        fail('awb_series', `applies to push services only (the ${courier.connector} connector issues its own AWBs)`);
      }
    }

    // One source of truth for "offers QC": a fee without the flag (or the flag without a fee) is a typo.
    if (courier.qc_capable && courier.qc_fee === null) fail('qc_fee', 'is required (a number) when qc_capable is true');
    if (!courier.qc_capable && courier.qc_fee !== null) fail('qc_fee', 'must be null when qc_capable is false');

    if (courier.min_weight > courier.max_weight) fail('min_weight', 'must not exceed max_weight');
    if (courier.min_billed_weight > courier.max_weight) fail('min_billed_weight', 'must not exceed max_weight');

    const rupeeFields: [string, number][] = [
      ['platform_fee', courier.platform_fee],
      ['cod.fixed', courier.cod.fixed],
    ];
    if (courier.qc_fee !== null) rupeeFields.push(['qc_fee', courier.qc_fee]);
    for (const journey of ['forward', 'rto', 'reverse'] as const) {
      for (const zone of ZONES) {
        const price = courier.prices[journey][zone];
        rupeeFields.push([`prices.${journey}.${zone}.first`, price.first]);
        rupeeFields.push([`prices.${journey}.${zone}.additional`, price.additional]);
      }
    }
    for (const [field, value] of rupeeFields) {
      if (!hasAtMostTwoDecimals(value)) fail(field, `${value} has more than two decimals (whole paise only)`);
    }
    if (!hasAtMostTwoDecimals(courier.cod.percent)) fail('cod.percent', 'must have at most two decimals');

    for (const listName of ['unserviceable_states', 'cod_unavailable_states'] as const) {
      const seen = new Set<string>();
      courier[listName].forEach((state, stateIndex) => {
        if (seen.has(state)) fail(`${listName}.${stateIndex}`, `duplicate state "${state}"`);
        seen.add(state);
        if (directory !== undefined && !directory.states.has(state)) {
          fail(`${listName}.${stateIndex}`, `unknown state "${state}" (not in the pincode directory)`);
        }
      });
    }
  });
  return problems;
}

function compilePrices(prices: CourierFileEntry['prices']['forward']): ZonePrices {
  const compiled = {} as Record<Zone, SlabPricePaise>;
  for (const zone of ZONES) {
    compiled[zone] = {
      firstPaise: rupeesToPaise(prices[zone].first),
      additionalPaise: rupeesToPaise(prices[zone].additional),
    };
  }
  return compiled;
}

function compileSeries(series: { first: string; last: string }): AwbSeries {
  const first = splitAwb(series.first);
  return {
    prefix: first.prefix,
    first: Number(first.digits),
    last: Number(splitAwb(series.last).digits),
    digits: first.digits.length,
  };
}

function compileService(courier: CourierFileEntry): CourierService {
  const [hours, minutes] = courier.pickup_cutoff.split(':').map(Number) as [number, number];
  return {
    id: courier.id,
    name: courier.name,
    code: courier.code,
    awbPrefix: courier.awb_prefix,
    connector: courier.connector ?? 'push',
    awbSeries: courier.awb_series ? compileSeries(courier.awb_series) : null,
    serviceLevel: courier.service_level,
    isFast: courier.is_fast,
    isPrime: courier.is_prime,
    platformFeePaise: rupeesToPaise(courier.platform_fee),
    minWeightGrams: courier.min_weight,
    maxWeightGrams: courier.max_weight,
    minBilledWeightGrams: courier.min_billed_weight,
    firstSlabGrams: courier.first_slab_weight,
    additionalSlabGrams: courier.additional_slab_weight,
    forward: compilePrices(courier.prices.forward),
    rto: compilePrices(courier.prices.rto),
    reverse: compilePrices(courier.prices.reverse),
    codFixedPaise: rupeesToPaise(courier.cod.fixed),
    codBasisPoints: Math.round(courier.cod.percent * 100),
    qcCapable: courier.qc_capable,
    qcFeePaise: courier.qc_fee === null ? null : rupeesToPaise(courier.qc_fee),
    transitDays: { ...courier.transit_days },
    pickupCutoff: courier.pickup_cutoff,
    pickupCutoffMinutes: hours * 60 + minutes,
    unserviceableStates: new Set(courier.unserviceable_states),
    codUnavailableStates: new Set(courier.cod_unavailable_states),
    remittanceCycle: compileRemittanceCycle(courier.remittance),
    ...(courier.multi_piece_charge !== undefined && { multiPieceCharge: courier.multi_piece_charge }),
  };
}
