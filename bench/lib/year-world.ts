// The small reference tables the year generator (year-traffic.ts) draws from, built in JavaScript
// from the app's own data and rules, then handed to PostgreSQL as JSON: destinations with the zone
// the app's classifyZone gives them from the warehouse, the courier catalogue, SKUs, and the
// courier journeys ("templates") with, for every number of scans reached, the shipment's state as
// the app's own foldEvents computes it. The millions of rows are then made in SQL from these.
import { readFileSync } from 'node:fs';
import { COURIER_SHARE as SHARES } from './courier-share.js';
import { dataPath, defaultRatesContext } from '../../src/data-files.js';
import type { PincodeEntry } from '../../src/domain/geo/pincodes.js';
import { classifyZone } from '../../src/domain/geo/zones.js';
import {
  foldEvents,
  MILESTONE_NAMES,
  type ShipmentStatus,
  type StoredEvent,
} from '../../src/domain/shipment/status-machine.js';

/** Deterministic randomness (mulberry32). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const FIRST_NAMES =
  'Aarav Vivaan Aditya Vihaan Arjun Sai Reyansh Krishna Ishaan Rohan Rahul Amit Suresh Ramesh Vikram Karan Manish Deepak Rajesh Sanjay Ananya Diya Priya Aadhya Saanvi Pooja Neha Kavya Sneha Anjali Divya Meera Lakshmi Asha Sunita Rekha Fatima Ayesha Zoya Imran Farhan Gurpreet Harpreet Simran Joseph Mary Thomas Lalitha Venkatesh Murugan'.split(
    ' ',
  );
export const LAST_NAMES =
  'Sharma Verma Gupta Singh Kumar Patel Shah Mehta Iyer Nair Menon Reddy Rao Naidu Das Bose Banerjee Chatterjee Mukherjee Ghosh Khan Ali Qureshi Joshi Kulkarni Deshpande Pillai Yadav Chauhan Thakur Mishra Pandey Tiwari Agarwal Jain Bhat Kaur Gill Fernandes Dsouza'.split(
    ' ',
  );
export const STREETS = [
  'MG Road',
  'Station Road',
  'Gandhi Nagar',
  'Nehru Street',
  'Sector 21',
  '2nd Cross, Indiranagar',
  'Park Street',
  'Civil Lines',
  'Anna Salai',
  'Link Road',
];
export const TAGS = ['gift', 'priority', 'fragile', 'festive-sale', 'repeat-customer', 'b2b'];

const PRODUCTS: [string, string, number, number][] = [
  ['Cotton Kurta', 'KRT', 399, 350],
  ['Silk Saree', 'SAR', 1299, 700],
  ['Denim Jeans', 'JNS', 899, 600],
  ['Printed T-Shirt', 'TSH', 299, 200],
  ['Running Shoes', 'SHO', 1499, 900],
  ['Leather Wallet', 'WAL', 499, 150],
  ['Steel Water Bottle', 'BTL', 349, 400],
  ['Bluetooth Earbuds', 'EAR', 1199, 250],
  ['Phone Cover', 'CVR', 199, 100],
  ['Herbal Shampoo', 'SHM', 299, 450],
  ['Masala Tea 250g', 'TEA', 199, 300],
  ['Yoga Mat', 'YGM', 799, 1500],
];

// The heavy-parcel services stay out of the year's draw: a parcel too heavy for the one drawn goes
// to Delhivery Surface instead (below), so the year's mix is the common services'.
const { CARDELH5KG001: _fiveKg, CARDELH10KG01: _tenKg, ...COURIER_SHARE } = SHARES;

const NDR_REASONS: [string, string, number][] = [
  // reason, the RTO reason it leads to, weight
  ['customer_unavailable', 'customer_unreachable', 35],
  ['address_incomplete', 'address_not_found', 15],
  ['refused', 'customer_refused', 15],
  ['cod_not_ready', 'cod_not_ready', 10],
  ['premises_closed', 'max_attempts_exceeded', 8],
  ['contact_unreachable', 'customer_unreachable', 10],
  ['future_delivery_requested', 'max_attempts_exceeded', 7],
];

interface Step {
  status: ShipmentStatus;
  sub: string;
  hours: number;
  /** o: origin city, oh: origin hub, h1..h3: hubs on the way, dh: destination hub, d: destination city. */
  loc: string;
  ndr?: string;
  rto?: string;
}

/** One way a parcel's journey goes, its share of parcels, and its scans at hours after booking. */
export interface Template {
  t: number;
  kind: 'delivered' | 'rto' | 'cancelled' | 'lost';
  weight: number;
  steps: Step[];
}

function journey(ndrs: number, reason: [string, string], end: 'delivered' | 'rto'): Step[] {
  const steps: Step[] = [
    { status: 'pending', sub: 'pickup_scheduled', hours: 2, loc: 'o' },
    { status: 'in_transit', sub: 'picked_up', hours: 20, loc: 'o' },
    { status: 'in_transit', sub: 'reached_origin_hub', hours: 25, loc: 'oh' },
    { status: 'in_transit', sub: 'departed_origin_hub', hours: 29, loc: 'oh' },
    { status: 'in_transit', sub: 'in_transit', hours: 36, loc: 'h1' },
    { status: 'in_transit', sub: 'in_transit', hours: 40, loc: 'h1' },
    { status: 'in_transit', sub: 'in_transit', hours: 48, loc: 'h2' },
    { status: 'in_transit', sub: 'in_transit', hours: 52, loc: 'h2' },
    { status: 'in_transit', sub: 'in_transit', hours: 60, loc: 'dh' },
    { status: 'in_transit', sub: 'reached_destination_hub', hours: 66, loc: 'dh' },
  ];
  let h = 66;
  /** The hour `gap` hours after the previous scan. */
  const after = (gap: number) => {
    h += gap;
    return h;
  };
  for (let k = 0; k < ndrs; k++) {
    steps.push({ status: 'out_for_delivery', sub: 'out_for_delivery', hours: after(k ? 18 : 8), loc: 'd' });
    steps.push({ status: 'ndr_raised', sub: reason[0], hours: after(6), loc: 'd', ndr: reason[0] });
  }
  if (end === 'delivered') {
    steps.push({ status: 'out_for_delivery', sub: 'out_for_delivery', hours: after(ndrs ? 18 : 8), loc: 'd' });
    steps.push({ status: 'delivered', sub: 'delivered', hours: after(4), loc: 'd' });
    return steps;
  }
  const rto = reason[1];
  steps.push({ status: 'rto_initiated', sub: 'rto_initiated', hours: after(20), loc: 'dh', rto });
  steps.push({ status: 'rto_in_transit', sub: 'rto_in_transit', hours: after(12), loc: 'dh', rto });
  steps.push({ status: 'rto_in_transit', sub: 'rto_in_transit', hours: after(30), loc: 'h2', rto });
  steps.push({ status: 'rto_in_transit', sub: 'rto_reached_origin_hub', hours: after(30), loc: 'oh', rto });
  steps.push({ status: 'rto_in_transit', sub: 'rto_out_for_delivery', hours: after(14), loc: 'o', rto });
  steps.push({ status: 'rto_delivered', sub: 'rto_delivered', hours: after(5), loc: 'o', rto });
  return steps;
}

/**
 * Outcomes in real proportions: about 81 % delivered (most at the first attempt), 8.5 % returned
 * to origin after one to three failed attempts, 5 % cancelled before pickup, 0.6 % lost; what is
 * not finished by now is in flight (the last days' bookings, cut at the clock).
 */
export function templates(): Template[] {
  const list: Omit<Template, 't'>[] = [];
  const reasonsTotal = NDR_REASONS.reduce((sum, [, , w]) => sum + w, 0);
  list.push({ kind: 'delivered', weight: 70, steps: journey(0, ['', ''], 'delivered') });
  for (const [ndr, rto, w] of NDR_REASONS) {
    const share = w / reasonsTotal;
    list.push({ kind: 'delivered', weight: 8 * share, steps: journey(1, [ndr, rto], 'delivered') });
    list.push({ kind: 'delivered', weight: 3 * share, steps: journey(2, [ndr, rto], 'delivered') });
    for (const [n, part] of [
      [1, 3],
      [2, 3],
      [3, 2.5],
    ] as const)
      list.push({ kind: 'rto', weight: part * share, steps: journey(n, [ndr, rto], 'rto') });
  }
  list.push({
    kind: 'cancelled',
    weight: 5.2,
    steps: [
      { status: 'pending', sub: 'pickup_scheduled', hours: 2, loc: 'o' },
      { status: 'cancelled', sub: 'cancelled_by_merchant', hours: 9, loc: 'o' },
    ],
  });
  list.push({
    kind: 'lost',
    weight: 0.6,
    steps: [...journey(0, ['', ''], 'delivered').slice(0, 8), { status: 'others', sub: 'lost', hours: 110, loc: 'h2' }],
  });
  return list.map((template, t) => ({ ...template, t }));
}

/** The shipment's state after the first `reached` scans of a template, by foldEvents. */
export function statesOf(template: Template) {
  const base = Date.UTC(2026, 0, 1);
  const events: StoredEvent[] = template.steps.map((s, k) => ({
    id: String(k + 1),
    status: s.status,
    subStatus: s.sub,
    eventTime: new Date(base + s.hours * 3_600_000),
    ndrReason: s.ndr ?? null,
    rtoReason: s.rto ?? null,
    receivedAt: new Date(base + s.hours * 3_600_000),
  }));
  const stepAt = (at: Date | null) => (at ? events.findIndex((e) => e.eventTime.getTime() === at.getTime()) + 1 : null);
  return template.steps
    .map((_, k) => k + 1)
    .concat(0)
    .map((reached) => {
      const state = foldEvents(events.slice(0, reached));
      return {
        t: template.t,
        reached,
        status: state.status,
        sub_status: state.subStatus,
        attempt_count: state.attemptCount,
        ndr_reason: state.ndrReason,
        rto_reason: state.rtoReason,
        picked_k: stepAt(state.pickedUpAt),
        delivered_k: stepAt(state.deliveredAt),
        cancelled_k: stepAt(state.cancelledAt),
        rto_initiated_k: stepAt(state.rtoInitiatedAt),
        rto_delivered_k: stepAt(state.rtoDeliveredAt),
        refused: events.slice(0, reached).filter((e) => e.status === 'ndr_raised' && e.ndrReason === 'refused').length,
      };
    });
}

/** Each first arrival in a stage (a milestone, named as the app names it) at its scan. */
export function milestonesOf(template: Template) {
  const seen = new Set<ShipmentStatus>();
  const rows: { t: number; k: number; milestone: string }[] = [];
  template.steps.forEach((s, i) => {
    if (!seen.has(s.status)) rows.push({ t: template.t, k: i + 1, milestone: MILESTONE_NAMES[s.status] });
    seen.add(s.status);
  });
  return rows;
}

/**
 * The outbox events of each template's scans: a status_changed at every change of status, and the
 * milestone events the app records beside it (delivered, ndr_raised, rto_initiated, cancelled).
 * `seq` is the subject's sequence (1 and 2 are shipment.created and shipment.booked).
 */
export function outboxOf(template: Template) {
  const rows: { t: number; k: number; seq: number; type: string; notify: string | null }[] = [];
  let seq = 2;
  let previous: ShipmentStatus = 'pending';
  const notifyOf: Partial<Record<ShipmentStatus, string>> = {
    out_for_delivery: 'out_for_delivery',
    delivered: 'delivered',
    ndr_raised: 'ndr_raised',
    rto_delivered: 'rto_delivered',
  };
  const milestone: Partial<Record<ShipmentStatus, string>> = {
    delivered: 'shipment.delivered',
    ndr_raised: 'shipment.ndr_raised',
    rto_initiated: 'shipment.rto_initiated',
    cancelled: 'shipment.cancelled',
  };
  template.steps.forEach((s, i) => {
    if (s.status === previous) return;
    previous = s.status;
    rows.push({
      t: template.t,
      k: i + 1,
      seq: ++seq,
      type: 'shipment.status_changed',
      notify: notifyOf[s.status] ?? null,
    });
    const extra = milestone[s.status];
    if (extra) rows.push({ t: template.t, k: i + 1, seq: ++seq, type: extra, notify: null });
  });
  return rows;
}

/** What the SQL draws from, as JSON rows for jsonb_to_recordset. */
export function world(warehousePincode: string, seed: number) {
  const { directory, regions, catalogue } = defaultRatesContext();
  const origin = directory.lookup(warehousePincode);
  if (!origin) throw new Error(`the warehouse's pincode ${warehousePincode} is not in the directory`);
  const next = random(seed);
  const entries: PincodeEntry[] = [];
  for (const line of readFileSync(dataPath('india-pincodes.csv'), 'utf8').split('\n').slice(1)) {
    const entry = directory.lookup(line.slice(0, 6));
    if (entry && entry.state !== 'Lakshadweep') entries.push(entry);
  }
  // 3,000 destinations, half of them in the metro clusters where most orders go.
  const metro = entries.filter((e) => regions.clusterOf(e.state, e.district));
  const other = entries.filter((e) => !regions.clusterOf(e.state, e.district));
  const destinations = Array.from({ length: 3000 }, (_, i) => {
    const list = i % 2 === 0 && metro.length ? metro : other;
    const entry = list[Math.floor(next() * list.length)]!;
    return {
      i,
      pincode: entry.pincode,
      city: entry.district,
      state: entry.state,
      zone: classifyZone(origin, entry, regions),
    };
  });
  let cumulative = 0;
  const shares = [...catalogue.byId.values()].filter((c) => COURIER_SHARE[c.id]);
  const total = shares.reduce((sum, c) => sum + COURIER_SHARE[c.id]!, 0);
  const couriers = shares.map((c, i) => {
    cumulative += COURIER_SHARE[c.id]! / total;
    const zonePrice = (zone: 'A' | 'B' | 'C' | 'D' | 'E') => c.forward[zone];
    return {
      i,
      id: c.id,
      name: c.name,
      prefix: c.awbPrefix,
      upto: cumulative,
      max_grams: c.maxWeightGrams,
      first_slab: c.firstSlabGrams,
      add_slab: c.additionalSlabGrams,
      prices: Object.fromEntries(
        (['A', 'B', 'C', 'D', 'E'] as const).map((z) => [z, [zonePrice(z).firstPaise, zonePrice(z).additionalPaise]]),
      ),
      cod_fixed: c.codFixedPaise,
      cod_bp: c.codBasisPoints,
    };
  });
  const skus = Array.from({ length: 400 }, (_, i) => {
    const [name, stem, price, grams] = PRODUCTS[i % PRODUCTS.length]!;
    return {
      i,
      name,
      sku: `${stem}-${['S', 'M', 'L', 'XL'][i % 4]}-${String(i).padStart(4, '0')}`,
      price_paise: Math.round(price * (0.7 + next() * 0.8)) * 100,
      grams,
    };
  });
  const all = templates();
  const weights = all.reduce((sum, t) => sum + t.weight, 0);
  const uptos: number[] = [];
  for (const t of all) uptos.push((uptos.at(-1) ?? 0) + t.weight / weights);
  return {
    destinations,
    couriers,
    skus,
    templates: all.map((t) => ({ t: t.t, kind: t.kind, upto: uptos[t.t]!, steps: t.steps.length })),
    steps: all.flatMap((t) =>
      t.steps.map((s, k) => ({
        t: t.t,
        k: k + 1,
        status: s.status,
        sub: s.sub,
        hours: s.hours,
        loc: s.loc,
        ndr: s.ndr ?? null,
        rto: s.rto ?? null,
      })),
    ),
    states: all.flatMap(statesOf),
    milestones: all.flatMap(milestonesOf),
    outbox: all.flatMap(outboxOf),
  };
}
