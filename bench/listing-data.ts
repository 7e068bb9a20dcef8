// Generator of realistic shipments for the listing benchmark (bench/listing.ts).
//
// Every row is what the API itself would have written: orders, items, shipments with the
// denormalised listing columns and search_text built exactly as orders.service.ts builds it,
// tracking events along a courier's real path, and the status, sub_status, attempt_count,
// reasons, timestamps and milestones computed by the app's own foldEvents from those events.
// Rows come out as PostgreSQL COPY text, in created_at order across all accounts (as a live
// system inserts them), in chunks, so any size streams in bounded memory.
import { COURIER_SHARE } from './lib/courier-share.js';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PincodeEntry } from '../src/domain/geo/pincodes.js';
import { classifyZone, type Zone } from '../src/domain/geo/zones.js';
import type { CourierService } from '../src/domain/rates/catalogue.js';
import { foldEvents, type ShipmentStatus, type StoredEvent } from '../src/domain/shipment/status-machine.js';
import { dataPath, defaultRatesContext } from '../src/data-files.js';

export interface Scale {
  /** All shipments, every account. */
  shipments: number;
  /** Shipments of the one big account the benchmark lists as. */
  bigAccount: number;
  /** How many other accounts share the rest. */
  otherAccounts: number;
  /** created_at spans this many days before `now`. */
  days: number;
}

/** One table's rows, as COPY text (tab-separated, \N for null, one row per line). */
export interface TableRows {
  table: string;
  columns: string[];
  text: string;
  count: number;
}

// --- Deterministic randomness (mulberry32), so two runs build the same distributions. ---

export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Index into `weights`, with probability proportional to the weight. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0);
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i]!;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }
}

/** Cumulative weights for a Zipf-like popularity over n items (s = 1.05), for O(log n) picks. */
function zipfCumulative(n: number): Float64Array {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += 1 / (i + 1) ** 1.05;
    cumulative[i] = sum;
  }
  for (let i = 0; i < n; i++) cumulative[i]! /= sum;
  return cumulative;
}

function pickCumulative(cumulative: Float64Array, r: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < r) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// --- COPY text ---

const escapeCopy = (value: string) =>
  value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));

type Cell = string | number | boolean | Date | null | undefined | string[];

function cell(value: Cell): string {
  if (value === null || value === undefined) return '\\N';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value))
    return escapeCopy(`{${value.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  return escapeCopy(value);
}

class TableBuffer {
  private lines: string[] = [];
  constructor(
    readonly table: string,
    readonly columns: string[],
  ) {}
  add(values: Cell[]): void {
    this.lines.push(values.map(cell).join('\t'));
  }
  take(): TableRows {
    const rows = {
      table: this.table,
      columns: this.columns,
      text: this.lines.length ? `${this.lines.join('\n')}\n` : '',
      count: this.lines.length,
    };
    this.lines = [];
    return rows;
  }
}

// --- Vocabulary ---

const FIRST_NAMES = [
  'Aarav',
  'Vivaan',
  'Aditya',
  'Vihaan',
  'Arjun',
  'Sai',
  'Reyansh',
  'Krishna',
  'Ishaan',
  'Rohan',
  'Rahul',
  'Amit',
  'Suresh',
  'Ramesh',
  'Vikram',
  'Karan',
  'Manish',
  'Deepak',
  'Rajesh',
  'Sanjay',
  'Ananya',
  'Diya',
  'Priya',
  'Aadhya',
  'Saanvi',
  'Pooja',
  'Neha',
  'Kavya',
  'Sneha',
  'Anjali',
  'Divya',
  'Meera',
  'Lakshmi',
  'Asha',
  'Sunita',
  'Rekha',
  'Fatima',
  'Ayesha',
  'Zoya',
  'Imran',
  'Farhan',
  'Gurpreet',
  'Harpreet',
  'Simran',
  'Joseph',
  'Mary',
  'Thomas',
  'Lalitha',
  'Venkatesh',
  'Murugan',
];
const LAST_NAMES = [
  'Sharma',
  'Verma',
  'Gupta',
  'Singh',
  'Kumar',
  'Patel',
  'Shah',
  'Mehta',
  'Iyer',
  'Nair',
  'Menon',
  'Reddy',
  'Rao',
  'Naidu',
  'Das',
  'Banerjee',
  'Chatterjee',
  'Mukherjee',
  'Bose',
  'Khan',
  'Ahmed',
  'Qureshi',
  'Sheikh',
  'Joshi',
  'Kulkarni',
  'Deshpande',
  'Patil',
  'Jadhav',
  'Pillai',
  'Krishnan',
  'Subramanian',
  'Agarwal',
  'Jain',
  'Bansal',
  'Malhotra',
  'Kapoor',
  'Chopra',
  'Gill',
  'Sandhu',
  'Fernandes',
  "D'Souza",
  'Thomas',
  'George',
  'Mishra',
  'Pandey',
  'Tiwari',
  'Yadav',
  'Chauhan',
  'Rathore',
  'Saxena',
];
const STREETS = [
  'MG Road',
  'Station Road',
  'Nehru Nagar',
  'Gandhi Chowk',
  'Civil Lines',
  'Sector 21',
  'Park Street',
  'Main Bazaar',
  'Ring Road',
  'Lake View Colony',
];
const EMAIL_DOMAINS = [
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'yahoo.co.in',
  'outlook.com',
  'rediffmail.com',
  'hotmail.com',
];
const PRODUCTS: [string, string, number, number][] = [
  // name, SKU stem, price range (rupees), weight (g)
  ['Cotton Kurta', 'KRT', 399, 350],
  ['Silk Saree', 'SAR', 1299, 700],
  ['Denim Jeans', 'JNS', 899, 600],
  ['Printed T-Shirt', 'TSH', 299, 200],
  ['Running Shoes', 'SHO', 1499, 900],
  ['Leather Wallet', 'WAL', 499, 150],
  ['Steel Water Bottle', 'BTL', 349, 400],
  ['Ceramic Mug Set', 'MUG', 599, 1200],
  ['Bluetooth Earbuds', 'EAR', 1199, 250],
  ['Phone Cover', 'CVR', 199, 100],
  ['Ayurvedic Face Wash', 'FCW', 249, 200],
  ['Herbal Shampoo', 'SHM', 299, 450],
  ['Basmati Rice 5kg', 'RCE', 699, 5100],
  ['Masala Tea 250g', 'TEA', 199, 300],
  ['Yoga Mat', 'YGM', 799, 1500],
  ['Bedsheet Double', 'BED', 999, 1300],
  ['Kids Story Book', 'BOK', 249, 350],
  ['Brass Diya', 'DIY', 449, 500],
];
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
const COLOURS = ['RED', 'BLU', 'GRN', 'BLK', 'WHT', 'YLW', 'PNK', 'MRN'];
/** Order tags are free text; these are what merchants commonly use, most orders have none. */
export const TAGS = ['gift', 'priority', 'fragile', 'festive-sale', 'repeat-customer', 'b2b', 'influencer', 'bulk'];
const TAG_WEIGHTS = [10, 8, 6, 9, 7, 2, 1, 1];

const DESCRIPTIONS: Record<string, string> = {
  pickup_scheduled: 'Pickup scheduled',
  picked_up: 'Shipment picked up',
  reached_origin_hub: 'Reached origin hub',
  departed_origin_hub: 'Departed origin hub',
  in_transit: 'In transit',
  reached_destination_hub: 'Reached destination hub',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  customer_unavailable: 'Customer not available',
  address_incomplete: 'Address incomplete',
  refused: 'Customer refused delivery',
  cod_not_ready: 'COD amount not ready',
  premises_closed: 'Premises closed',
  future_delivery_requested: 'Customer asked for a later delivery',
  contact_unreachable: 'Customer phone unreachable',
  rto_initiated: 'Return to origin initiated',
  rto_in_transit: 'Return in transit',
  rto_reached_origin_hub: 'Return reached origin hub',
  rto_delivered: 'Returned to seller',
  cancelled_by_merchant: 'Cancelled by the merchant',
  lost: 'Shipment lost in transit',
  damaged: 'Shipment damaged in transit',
};

const NDR_SUB = [
  'customer_unavailable',
  'address_incomplete',
  'refused',
  'cod_not_ready',
  'premises_closed',
  'future_delivery_requested',
  'contact_unreachable',
];
const NDR_WEIGHTS = [35, 15, 15, 10, 8, 10, 7];
const RTO_FROM_NDR: Record<string, string> = {
  customer_unavailable: 'customer_unreachable',
  address_incomplete: 'address_not_found',
  refused: 'customer_refused',
  cod_not_ready: 'cod_not_ready',
  premises_closed: 'max_attempts_exceeded',
  future_delivery_requested: 'max_attempts_exceeded',
  contact_unreachable: 'customer_unreachable',
};

// --- The world ---

interface Warehouse {
  id: string;
  entry: PincodeEntry;
  name: string;
}
interface Store {
  id: string;
  name: string;
}
interface Sku {
  sku: string;
  name: string;
  pricePaise: number;
  grams: number;
}
interface Account {
  id: string;
  name: string;
  orderPrefix: string;
  sequence: number;
  warehouses: Warehouse[];
  warehouseWeights: number[];
  stores: Store[];
  storeShare: number;
  skus: Sku[];
  skuCumulative: Float64Array;
}

/** What the benchmark's requests need to know about the data it lists. */
export interface Facts {
  bigAccountId: string;
  bigWarehouseId: string;
  bigStoreName: string;
  bigTopSku: string;
  topCarrierId: string;
  /** A sample of the big account's AWBs and phone numbers, for search requests. */
  sampleAwbs: string[];
  samplePhones: string[];
  statusCounts: Record<string, number>;
  events: number;
  milestones: number;
  items: number;
}

export class ListingDataGenerator {
  readonly facts: Facts;
  private readonly random: Random;
  private readonly accounts: Account[];
  private readonly accountOf: Uint8Array;
  private readonly metroPins: PincodeEntry[] = [];
  private readonly otherPins: PincodeEntry[] = [];
  private readonly couriers: CourierService[];
  private readonly courierWeights: number[];
  private readonly awbSequence = new Map<string, number>();
  private readonly rates = defaultRatesContext();
  private readonly start: number;
  private readonly step: number;
  private produced = 0;

  constructor(
    readonly scale: Scale,
    readonly now: Date,
    seed = 20261120,
  ) {
    this.random = new Random(seed);
    const r = this.random;
    const { directory, regions, catalogue } = this.rates;

    for (const line of readFileSync(dataPath('india-pincodes.csv'), 'utf8').split('\n').slice(1)) {
      const entry = directory.lookup(line.slice(0, 6));
      if (!entry || entry.state === 'Lakshadweep') continue;
      (regions.clusterOf(entry.state, entry.district) ? this.metroPins : this.otherPins).push(entry);
    }
    this.couriers = [...catalogue.byId.values()];
    this.courierWeights = this.couriers.map((c) => COURIER_SHARE[c.id] ?? 1);

    const origins = [
      '110020',
      '400072',
      '560068',
      '122001',
      '600032',
      '411019',
      '700091',
      '500032',
      '302017',
      '380015',
    ].map((pin) => directory.lookup(pin)!);
    this.accounts = Array.from({ length: scale.otherAccounts + 1 }, (_, a) => {
      const big = a === 0;
      const name = big ? 'Bench Big Retail' : `Bench Merchant ${a}`;
      const warehouseCount = big ? 6 : r.int(1, 3);
      const warehouses = Array.from({ length: warehouseCount }, (_, w) => {
        const entry = origins[(a + w) % origins.length]!;
        return { id: randomUUID(), entry, name: `${entry.district} FC ${w + 1}` };
      });
      const stores = Array.from({ length: big ? 4 : r.int(0, 2) }, (_, s) => ({
        id: randomUUID(),
        name: big
          ? ['bigretail-fashion', 'bigretail-home', 'bigretail-beauty', 'bigretail-kids'][s]!
          : `merchant${a}-store${s + 1}`,
      }));
      const skuCount = big ? 2000 : r.int(50, 400);
      const skus = Array.from({ length: skuCount }, (_, k) => {
        const [product, stem, price, grams] = PRODUCTS[(k * 7 + a) % PRODUCTS.length]!;
        return {
          sku: `${stem}-${r.pick(SIZES)}-${r.pick(COLOURS)}-${String(k).padStart(4, '0')}`,
          name: product,
          pricePaise: Math.round(price * (0.7 + r.next() * 0.8)) * 100,
          grams,
        };
      });
      return {
        id: randomUUID(),
        name,
        orderPrefix: big ? 'BR' : `M${a}`,
        sequence: 100_000,
        warehouses,
        warehouseWeights: warehouses.map((_, w) => (w === 0 ? 5 : 1)),
        stores,
        storeShare: big ? 0.85 : stores.length ? 0.6 : 0,
        skus,
        skuCumulative: zipfCumulative(skuCount),
      };
    });

    // Exactly `bigAccount` shipments for account 0, the rest dealt evenly to the others, shuffled.
    this.accountOf = new Uint8Array(scale.shipments);
    for (let i = scale.bigAccount; i < scale.shipments; i++)
      this.accountOf[i] = 1 + ((i - scale.bigAccount) % scale.otherAccounts);
    for (let i = scale.shipments - 1; i > 0; i--) {
      const j = Math.floor(r.next() * (i + 1));
      const t = this.accountOf[i]!;
      this.accountOf[i] = this.accountOf[j]!;
      this.accountOf[j] = t;
    }
    this.start = now.getTime() - scale.days * 86_400_000;
    this.step = (scale.days * 86_400_000 - 3_600_000) / scale.shipments;

    const big = this.accounts[0]!;
    this.facts = {
      bigAccountId: big.id,
      bigWarehouseId: big.warehouses[0]!.id,
      bigStoreName: big.stores[0]!.name,
      bigTopSku: big.skus[0]!.sku,
      topCarrierId: 'CARDELHSURF01',
      sampleAwbs: [],
      samplePhones: [],
      statusCounts: {},
      events: 0,
      milestones: 0,
      items: 0,
    };
  }

  /** Accounts, warehouses and stores. */
  setupRows(): TableRows[] {
    const accounts = new TableBuffer('accounts', ['id', 'name', 'username', 'password_hash', 'created_at']);
    const warehouses = new TableBuffer('warehouses', [
      'id',
      'account_id',
      'name',
      'phone',
      'email',
      'contact_person',
      'street_address',
      'pincode',
      'city',
      'state',
      'country',
      'created_at',
    ]);
    const stores = new TableBuffer('stores', [
      'id',
      'account_id',
      'store_name',
      'brand_name',
      'channel',
      'status',
      'logo_sha256',
      'created_at',
      'updated_at',
    ]);
    const created = new Date(this.start - 30 * 86_400_000);
    for (const a of this.accounts) {
      accounts.add([a.id, a.name, null, null, created]);
      for (const w of a.warehouses) {
        warehouses.add([
          w.id,
          a.id,
          w.name,
          '9876543210',
          'ops@example.com',
          'Ops Desk',
          `Plot ${this.random.int(1, 200)}, Industrial Area`,
          w.entry.pincode,
          w.entry.district,
          w.entry.state,
          'India',
          created,
        ]);
      }
      for (const s of a.stores)
        stores.add([
          s.id,
          a.id,
          s.name,
          s.name.replace(/-/g, ' '),
          'manual_order',
          'connected',
          null,
          created,
          created,
        ]);
    }
    return [accounts.take(), warehouses.take(), stores.take()];
  }

  get generated(): number {
    return this.produced;
  }

  get done(): boolean {
    return this.produced >= this.scale.shipments;
  }

  /** The next `size` shipments with their orders, items, events and milestones. */
  nextChunk(size: number): TableRows[] {
    const orders = new TableBuffer('orders', [
      'id',
      'account_id',
      'merchant_order_id',
      'store_id',
      'warehouse_id',
      'channel',
      'order_date',
      'payment_method',
      'sub_total_paise',
      'cod_collectible_paise',
      'billing_name',
      'billing_last_name',
      'billing_address',
      'billing_address_2',
      'billing_city',
      'billing_pincode',
      'billing_state',
      'billing_country',
      'billing_email',
      'billing_phone',
      'shipping_is_billing',
      'shipping_name',
      'shipping_last_name',
      'shipping_address',
      'shipping_address_2',
      'shipping_city',
      'shipping_pincode',
      'shipping_state',
      'shipping_country',
      'shipping_email',
      'shipping_phone',
      'length_cm',
      'breadth_cm',
      'height_cm',
      'weight_grams',
      'tags',
      'print_label',
      'created_at',
    ]);
    const items = new TableBuffer('order_items', [
      'id',
      'account_id',
      'order_id',
      'position',
      'name',
      'sku',
      'units',
      'selling_price_paise',
      'discount_paise',
      'tax_percent',
      'hsn',
    ]);
    const shipments = new TableBuffer('shipments', [
      'id',
      'account_id',
      'order_id',
      'warehouse_id',
      'store_id',
      'channel',
      'order_date',
      'status',
      'sub_status',
      'zone',
      'is_cod',
      'cod_amount_paise',
      'total_price_paise',
      'applied_weight_grams',
      'carrier_id',
      'awb',
      'freight_paise',
      'cod_charges_paise',
      'rto_charges_paise',
      'attempt_count',
      'ndr_reason',
      'rto_reason',
      'skus',
      'tags',
      'search_text',
      'created_at',
      'updated_at',
      'assigned_at',
      'picked_up_at',
      'delivered_at',
      'cancelled_at',
      'rto_initiated_at',
      'rto_delivered_at',
    ]);
    const events = new TableBuffer('tracking_events', [
      'id',
      'account_id',
      'shipment_id',
      'status',
      'sub_status',
      'event_time',
      'location',
      'description',
      'ndr_reason',
      'rto_reason',
      'event_id',
      'received_at',
    ]);
    const milestones = new TableBuffer('shipment_milestones', [
      'account_id',
      'shipment_id',
      'milestone',
      'milestone_at',
    ]);

    const end = Math.min(this.scale.shipments, this.produced + size);
    const r = this.random;
    const { regions } = this.rates;
    for (let i = this.produced; i < end; i++) {
      const account = this.accounts[this.accountOf[i]!]!;
      const createdAt = new Date(Math.floor(this.start + (i + r.next()) * this.step));
      const orderDate = new Date(Math.floor((createdAt.getTime() - r.int(0, 36 * 60) * 60_000) / 60_000) * 60_000);
      const warehouse = account.warehouses[r.weighted(account.warehouseWeights)]!;
      const destination = r.chance(0.55) ? r.pick(this.metroPins) : r.pick(this.otherPins);
      const zone: Zone = classifyZone(warehouse.entry, destination, regions);
      const store =
        account.stores.length && r.chance(account.storeShare)
          ? account.stores[r.weighted(account.stores.map((_, s) => 4 - s))]!
          : null;

      const orderId = randomUUID();
      const shipmentId = randomUUID();
      const merchantOrderId = `${account.orderPrefix}-${++account.sequence}`;
      const first = r.pick(FIRST_NAMES);
      const last = r.chance(0.9) ? r.pick(LAST_NAMES) : null;
      const phone = `${r.int(6, 9)}${String(r.int(0, 999_999_999)).padStart(9, '0')}`;
      const email = r.chance(0.7)
        ? `${first}.${last ?? 'in'}${r.int(1, 999)}@${r.pick(EMAIL_DOMAINS)}`.toLowerCase().replace(/'/g, '')
        : null;
      const address = `${r.int(1, 400)}, ${r.pick(STREETS)}`;

      const lineCount = r.weighted([70, 20, 10]) + 1;
      const lines: { sku: Sku; units: number }[] = [];
      for (let k = 0; k < lineCount; k++) {
        const sku = account.skus[pickCumulative(account.skuCumulative, r.next())]!;
        if (!lines.some((l) => l.sku === sku)) lines.push({ sku, units: r.weighted([80, 15, 5]) + 1 });
      }
      const subTotalPaise = lines.reduce((sum, l) => sum + l.sku.pricePaise * l.units, 0);
      const deadGrams = lines.reduce((sum, l) => sum + l.sku.grams * l.units, 0) + 50;
      const [length, breadth, height] = deadGrams > 3000 ? [40, 30, 20] : deadGrams > 800 ? [30, 20, 10] : [20, 15, 5];
      const applied = Math.max(deadGrams, (length * breadth * height) / 5);
      const cod = r.chance(0.55);
      const tags = r.chance(0.35)
        ? [...new Set([TAGS[r.weighted(TAG_WEIGHTS)]!, ...(r.chance(0.2) ? [TAGS[r.weighted(TAG_WEIGHTS)]!] : [])])]
        : [];

      // What happens to the parcel, then the courier's scans along that path, cut at "now".
      const outcome = r.weighted([74, 9, 9, 5.5, 0.8, 1.7]);
      const assigned = outcome !== 5 || r.chance(0.4);
      let courier: CourierService | null = null;
      if (assigned) {
        for (let tries = 0; tries < 20 && !courier; tries++) {
          const candidate = this.couriers[r.weighted(this.courierWeights)]!;
          if (candidate.minWeightGrams <= applied && applied <= candidate.maxWeightGrams) courier = candidate;
        }
        courier ??= this.couriers.find((c) => c.id === 'CARDTDCSTD001')!;
      }
      const awb = courier ? `${courier.awbPrefix}${String(this.nextAwb(courier.id)).padStart(10, '0')}` : null;

      const scans = courier
        ? this.scansFor(outcome, createdAt, zone, courier, warehouse.entry.district, destination.district, awb!)
        : [];
      const stored: (StoredEvent & { location: string; description: string; eventId: string })[] = scans.map((s) => ({
        id: randomUUID(),
        status: s.status,
        subStatus: s.subStatus,
        eventTime: s.at,
        ndrReason: s.ndrReason ?? null,
        rtoReason: s.rtoReason ?? null,
        receivedAt: new Date(Math.min(this.now.getTime(), s.at.getTime() + r.int(1, 300) * 1000)),
        location: s.location,
        description: DESCRIPTIONS[s.subStatus] ?? s.subStatus,
        eventId: `${awb}-${s.seq}`,
      }));
      const state = foldEvents(stored);

      orders.add([
        orderId,
        account.id,
        merchantOrderId,
        store?.id ?? null,
        warehouse.id,
        'manual_order',
        orderDate,
        cod ? 'cod' : 'prepaid',
        subTotalPaise,
        cod ? subTotalPaise : 0,
        first,
        last,
        address,
        null,
        destination.district,
        destination.pincode,
        destination.state,
        'India',
        email,
        phone,
        true,
        first,
        last,
        address,
        null,
        destination.district,
        destination.pincode,
        destination.state,
        'India',
        email,
        phone,
        length,
        breadth,
        height,
        deadGrams,
        tags,
        true,
        createdAt,
      ]);
      lines.forEach((l, position) => {
        items.add([
          randomUUID(),
          account.id,
          orderId,
          position,
          l.sku.name,
          l.sku.sku,
          l.units,
          l.sku.pricePaise,
          0,
          5,
          '6211',
        ]);
      });
      // Exactly what orders.service.ts searchText() writes.
      const searchText = [
        awb,
        merchantOrderId,
        orderId,
        first,
        last,
        phone,
        email,
        destination.district,
        destination.pincode,
      ]
        .filter(Boolean)
        .join(' ')
        .toLowerCase();
      const freight = courier
        ? courier.forward[zone].firstPaise +
          Math.max(0, Math.ceil((applied - courier.firstSlabGrams) / courier.additionalSlabGrams)) *
            courier.forward[zone].additionalPaise
        : null;
      const lastReceived = stored.reduce((latest, e) => Math.max(latest, e.receivedAt.getTime()), createdAt.getTime());
      shipments.add([
        shipmentId,
        account.id,
        orderId,
        warehouse.id,
        store?.id ?? null,
        'manual_order',
        orderDate,
        state.status,
        state.subStatus,
        zone,
        cod,
        cod ? subTotalPaise : 0,
        subTotalPaise,
        applied,
        courier?.id ?? null,
        awb,
        freight,
        courier && cod
          ? Math.max(courier.codFixedPaise, Math.round((subTotalPaise * courier.codBasisPoints) / 10_000))
          : courier
            ? 0
            : null,
        freight,
        state.attemptCount,
        state.ndrReason,
        state.rtoReason,
        [...new Set(lines.map((l) => l.sku.sku))],
        tags,
        searchText,
        createdAt,
        new Date(lastReceived),
        courier ? createdAt : null,
        state.pickedUpAt,
        state.deliveredAt,
        state.cancelledAt,
        state.rtoInitiatedAt,
        state.rtoDeliveredAt,
      ]);
      for (const e of stored) {
        events.add([
          e.id,
          account.id,
          shipmentId,
          e.status,
          e.subStatus,
          e.eventTime,
          e.location,
          e.description,
          e.ndrReason,
          e.rtoReason,
          e.eventId,
          e.receivedAt,
        ]);
      }
      milestones.add([account.id, shipmentId, 'order_created', createdAt]);
      if (courier) milestones.add([account.id, shipmentId, 'courier_assigned', createdAt]);
      for (const m of state.milestones) milestones.add([account.id, shipmentId, m.milestone, m.at]);

      this.facts.events += stored.length;
      this.facts.milestones += state.milestones.length + (courier ? 2 : 1);
      this.facts.items += lines.length;
      if (account === this.accounts[0]) {
        this.facts.statusCounts[state.status] = (this.facts.statusCounts[state.status] ?? 0) + 1;
        if (awb && r.chance(0.002)) this.facts.sampleAwbs.push(awb);
        if (r.chance(0.002)) this.facts.samplePhones.push(phone);
      }
    }
    this.produced = end;
    return [orders.take(), items.take(), shipments.take(), events.take(), milestones.take()];
  }

  /** Each courier's last AWB number, for awb_counters (so new bookings continue the series). */
  awbCounters(): TableRows {
    const counters = new TableBuffer('awb_counters', ['carrier_id', 'last_value']);
    for (const [carrierId, last] of this.awbSequence) counters.add([carrierId, last]);
    return counters.take();
  }

  private nextAwb(carrierId: string): number {
    const next = (this.awbSequence.get(carrierId) ?? 0) + 1;
    this.awbSequence.set(carrierId, next);
    return next;
  }

  private scansFor(
    outcome: number,
    createdAt: Date,
    zone: Zone,
    courier: CourierService,
    origin: string,
    destination: string,
    awb: string,
  ) {
    const r = this.random;
    const scans: {
      status: ShipmentStatus;
      subStatus: string;
      at: Date;
      location: string;
      ndrReason?: string;
      rtoReason?: string;
      seq: number;
    }[] = [];
    let t = createdAt.getTime();
    const hours = (min: number, max: number) => {
      t += Math.round((min + r.next() * (max - min)) * 3_600_000);
      return new Date(t);
    };
    const add = (
      status: ShipmentStatus,
      subStatus: string,
      at: Date,
      location: string,
      extra: { ndrReason?: string; rtoReason?: string } = {},
    ) => scans.push({ status, subStatus, at, location, ...extra, seq: scans.length + 1 });
    void awb;

    if (outcome === 3) {
      // Cancelled by the merchant before pickup.
      add('cancelled', 'cancelled_by_merchant', hours(0.2, 8), origin);
      return this.cut(scans);
    }
    if (outcome === 5) {
      // Pickup never happened (yet): a failed pickup attempt at most.
      if (r.chance(0.5)) add('pending', 'pickup_failed', hours(20, 30), origin);
      return this.cut(scans);
    }
    add('in_transit', 'picked_up', hours(3, 30), origin);
    add('in_transit', 'reached_origin_hub', hours(2, 8), `${origin} Hub`);
    add('in_transit', 'departed_origin_hub', hours(1, 6), `${origin} Hub`);
    const transitDays = courier.transitDays[zone];
    add(
      'in_transit',
      'reached_destination_hub',
      hours(Math.max(4, transitDays * 18), Math.max(10, transitDays * 26)),
      `${destination} Hub`,
    );
    if (outcome === 4) {
      add('others', r.chance(0.6) ? 'lost' : 'damaged', hours(10, 72), `${destination} Hub`);
      return this.cut(scans);
    }
    const ndrs = outcome === 0 ? 0 : outcome === 1 ? r.weighted([70, 30]) + 1 : r.weighted([30, 40, 30]) + 1;
    let reason = 'customer_unavailable';
    for (let k = 0; k < ndrs; k++) {
      add('out_for_delivery', 'out_for_delivery', hours(k === 0 ? 4 : 14, k === 0 ? 14 : 30), destination);
      reason = NDR_SUB[r.weighted(NDR_WEIGHTS)]!;
      add('ndr_raised', reason, hours(2, 9), destination, { ndrReason: reason });
    }
    if (outcome === 2) {
      const rtoReason = RTO_FROM_NDR[reason]!;
      add('rto_initiated', 'rto_initiated', hours(12, 40), `${destination} Hub`, { rtoReason });
      add('rto_in_transit', 'rto_in_transit', hours(6, 24), `${destination} Hub`, { rtoReason });
      add(
        'rto_in_transit',
        'rto_reached_origin_hub',
        hours(Math.max(12, transitDays * 20), Math.max(24, transitDays * 30)),
        `${origin} Hub`,
      );
      add('rto_delivered', 'rto_delivered', hours(6, 30), origin);
      return this.cut(scans);
    }
    add('out_for_delivery', 'out_for_delivery', hours(ndrs === 0 ? 4 : 14, ndrs === 0 ? 14 : 30), destination);
    add('delivered', 'delivered', hours(1, 9), destination);
    return this.cut(scans);
  }

  /** Scans not yet happened by "now" are not in the history yet. */
  private cut<T extends { at: Date }>(scans: T[]): T[] {
    const limit = this.now.getTime() - 60_000;
    return scans.filter((s) => s.at.getTime() <= limit);
  }
}
