import type { ReturnAddress } from '../../base/db/schema.js';
import { checkAll, invalid } from '../../domain/errors.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import { resolveAddressFields } from '../../domain/geo/resolve.js';
import { readOrderDate } from '../../domain/shipment/order-dates.js';
import { rupeesToPaise } from '../../domain/money.js';
import { type CreateReturnInput, MAX_QC_SKUS } from './returns.schemas.js';

export interface ReturnItemInput {
  name: string;
  sku: string;
  units: number;
  sellingPricePaise: number;
  discountPaise: number;
  qc: Record<string, string | boolean> | null;
}

export interface ReturnInput {
  merchantOrderId: string;
  orderDate: Date;
  channelRef: string | null;
  carrierId: string | undefined;
  pickup: ReturnAddress;
  /** Undefined when the request names warehouse_id and leaves the address to it. */
  shipping: ReturnAddress | undefined;
  warehouseId: string | undefined;
  subTotalPaise: number;
  totalDiscountPaise: number;
  lengthCm: number;
  breadthCm: number;
  heightCm: number;
  weightGrams: number;
  requestPickup: boolean;
  items: ReturnItemInput[];
  /** 1 or 2 SKUs asked for QC; false when none did, or more than Velocity checks. */
  qcRequested: boolean;
  /** Set when items asked for QC and will not get it. */
  qcNote: string | null;
  forward: { awb: string } | { merchantOrderId: string } | undefined;
}

const REQUIRED = ['customer_name', 'address', 'city', 'state', 'country', 'pincode', 'phone'] as const;

/** The address's missing fields, phone and pincode, all reported together. */
function readAddress(
  body: CreateReturnInput,
  prefix: 'pickup' | 'shipping',
  directory: PincodeDirectory,
  why: string,
): ReturnAddress {
  const { phone, pincode } = resolveAddressFields(body, prefix, REQUIRED, why, directory);
  const text = (name: string) =>
    ((body as Record<string, unknown>)[`${prefix}_${name}`] as string | undefined)?.trim() || null;
  return {
    name: text('customer_name')!,
    last_name: text('last_name'),
    ...(prefix === 'pickup' && { company_name: body.company_name?.trim() || null }),
    address: text('address')!,
    address_2: text('address_2'),
    city: text('city')!,
    state: text('state')!,
    country: text('country')!,
    pincode,
    email: text('email'),
    phone,
  };
}

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

/** The items, each one's QC image checked; every item at fault is reported. */
function readItems(body: CreateReturnInput): ReturnItemInput[] {
  const checks = checkAll();
  const items = body.order_items.map((item, index) => {
    const where = `order_items[${index}]`;
    const qc = item.qc_enable ? checks.check(() => readQc(item, where)) : undefined;
    return {
      name: item.name.trim(),
      sku: item.sku.trim(),
      units: item.units,
      sellingPricePaise: rupeesToPaise(item.selling_price),
      discountPaise: rupeesToPaise(item.discount ?? 0),
      qc: qc ?? null,
    };
  });
  checks.done();
  return items;
}

type ReturnItemBody = CreateReturnInput['order_items'][number];

function readQc(item: ReturnItemBody, where: string): Record<string, string | boolean> {
  const image = item.qc_product_image?.trim();
  if (!image)
    throw invalid(`${where}.qc_product_image is required when qc_enable is true`, `${where}.qc_product_image`);
  if (!isHttpUrl(image)) throw invalid(`${where}.qc_product_image must be an http(s) URL`, `${where}.qc_product_image`);
  const qc: Record<string, string | boolean> = { qc_enable: true, qc_product_image: image };
  for (const key of ['qc_product_name', 'qc_brand', 'qc_size', 'qc_color'] as const) {
    const value = item[key]?.trim();
    if (value) qc[key] = value;
  }
  return qc;
}

/**
 * The checks a schema cannot express, and the conversion to internal units (paise, grams).
 * `courierAllowed`: whether the route books a courier, and so may be sent carrier_id.
 */
export function readReturnInput(
  body: CreateReturnInput,
  directory: PincodeDirectory,
  courierAllowed: boolean,
): ReturnInput {
  // Independent checks, all reported together.
  const checks = checkAll();
  const orderDate = checks.check(() => readOrderDate(body.order_date));
  const pickup = checks.check(() => readAddress(body, 'pickup', directory, ''));
  const warehouseId = body.warehouse_id?.trim() || undefined;
  // With warehouse_id the address may be left out; one that is sent is checked, and is where the return goes.
  const sentShipping = REQUIRED.some((name) => (body as Record<string, unknown>)[`shipping_${name}`] !== undefined);
  const shipping = !warehouseId
    ? checks.check(() => readAddress(body, 'shipping', directory, ' unless warehouse_id is given'))
    : sentShipping
      ? checks.check(() => readAddress(body, 'shipping', directory, ' when a shipping address is sent'))
      : undefined;
  const subTotalPaise = rupeesToPaise(body.sub_total);
  const totalDiscountPaise = rupeesToPaise(body.total_discount ?? 0);
  checks.check(() => {
    if (totalDiscountPaise > subTotalPaise)
      throw invalid('total_discount must not exceed the order value (sub_total)', 'total_discount');
  });
  checks.check(() => {
    if (body.forward_awb && body.forward_order_id)
      throw invalid('Send forward_awb or forward_order_id, not both', 'forward_order_id');
  });
  const items = checks.check(() => readItems(body));
  checks.check(() => {
    if (!courierAllowed && body.carrier_id) {
      throw invalid('carrier_id belongs to reverse-order-shipment or reverse-order-orchestration', 'carrier_id');
    }
  });
  checks.done();
  const qcSkus = new Set(items!.filter((item) => item.qc).map((item) => item.sku));
  // Velocity checks at most 2 SKUs per QC return and books the rest of such returns as non-QC.
  const tooMany = qcSkus.size > MAX_QC_SKUS;
  return {
    merchantOrderId: body.order_id,
    orderDate: orderDate!,
    channelRef: body.channel_id?.trim() || null,
    carrierId: body.carrier_id || undefined,
    pickup: pickup!,
    shipping,
    warehouseId,
    subTotalPaise,
    totalDiscountPaise,
    lengthCm: body.length,
    breadthCm: body.breadth,
    heightCm: body.height,
    weightGrams: body.weight * 1000,
    requestPickup: body.request_pickup ?? true,
    items: items!,
    qcRequested: qcSkus.size > 0 && !tooMany,
    qcNote: tooMany
      ? `QC covers at most ${MAX_QC_SKUS} SKUs and ${qcSkus.size} asked for it: booked as a non-QC return`
      : null,
    forward: body.forward_awb
      ? { awb: body.forward_awb.trim() }
      : body.forward_order_id
        ? { merchantOrderId: body.forward_order_id.trim() }
        : undefined,
  };
}
