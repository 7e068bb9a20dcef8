import { paymentMethodOf } from '../../domain/rates/engine.js';
import { checkAll, invalid } from '../../domain/errors.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import { resolveAddressFields, resolvePhone, resolvePincode } from '../../domain/geo/resolve.js';
import { rupeesToPaise } from '../../domain/money.js';
import { parseDay } from '../../domain/calendar.js';
import { EWAY_BILL_NUMBER_PATTERN } from '../../domain/paperwork/eway-bill.js';
import { gstinProblems } from '../../domain/paperwork/gstin.js';
import { readOrderDate } from '../../domain/shipment/order-dates.js';
import type { OrderPackage } from '../../base/db/schema.js';
import { readPackages } from './order-packages.js';
import type { OrderItemRow, OrderRow } from './orders.repository.js';
import type { CreateOrderInput } from './orders.schemas.js';
import type { VendorDetailsInput } from './vendor-details.schemas.js';

export interface Address {
  name: string;
  lastName: string | null;
  address: string;
  address2: string | null;
  city: string;
  pincode: string;
  state: string;
  country: string;
  email: string | null;
  phone: string;
}

const ADDRESS_REQUIRED = ['customer_name', 'address', 'city', 'pincode', 'state', 'country', 'phone'];

function readAddress(body: CreateOrderInput, kind: 'billing' | 'shipping', directory: PincodeDirectory): Address {
  const value = (name: string) => (body as Record<string, unknown>)[`${kind}_${name}`] as string | undefined;
  const { phone, pincode } = resolveAddressFields(
    body,
    kind,
    ADDRESS_REQUIRED,
    ' when shipping_is_billing is false',
    directory,
  );
  const optional = (name: string) => value(name)?.trim() || null;
  return {
    name: value('customer_name')!.trim(),
    lastName: optional('last_name'),
    address: value('address')!.trim(),
    address2: optional('address_2'),
    city: value('city')!.trim(),
    pincode,
    state: value('state')!.trim(),
    country: value('country')!.trim(),
    email: optional('email'),
    phone,
  };
}

export interface OrderInput {
  merchantOrderId: string;
  orderDate: Date;
  storeName: string | undefined;
  billing: Address;
  shippingIsBilling: boolean;
  shipping: Address;
  /** The buyer's other phone (the address form's); a merchant's order never sets it. */
  shippingAlternatePhone?: string | null;
  paymentMethod: 'cod' | 'prepaid';
  subTotalPaise: number;
  codPaise: number;
  lengthCm: number;
  breadthCm: number;
  heightCm: number;
  /** With packages, their total (decision 177). */
  weightGrams: number;
  /** A multi-piece order's boxes, box 1 first (grams, centimetres, items by SKU); null for one box. */
  packages: OrderPackage[] | null;
  /** At least one of the two: the schema cannot say so, readOrderInput does. */
  warehouseId: string | undefined;
  pickupLocation: string | undefined;
  carrierId: string | undefined;
  channelRef: string | null;
  companyName: string | null;
  /** The buyer's GSTIN (billing_gstin), upper case, for a B2B tax invoice; absent when none was sent. */
  buyerGstin?: string;
  /** The buyer's language the merchant set (the tracking page's), or null. */
  language: string | null;
  totalDiscountPaise: number;
  vendorDetails: VendorDetails | null;
  /** The e-way bill the merchant generated for it (rule 138), or null. */
  ewayBill: EwayBill | null;
  tags: string[];
  printLabel: boolean;
  items: {
    name: string;
    sku: string;
    units: number;
    sellingPricePaise: number;
    discountPaise: number;
    taxPercent: number | null;
    hsn: string | null;
    category: string | null;
  }[];
}

export type VendorDetails = Partial<Record<keyof VendorDetailsInput, string>>;

export interface EwayBill {
  number: string;
  /** YYYY-MM-DD, India time; null when not sent. */
  date: string | null;
}

const EWAY_BILL_NUMBER = new RegExp(EWAY_BILL_NUMBER_PATTERN);

/** ewaybill_no and ewaybill_date, each checked (both reported); a date needs its number. */
function readEwayBill(body: CreateOrderInput): EwayBill | null {
  const checks = checkAll();
  const sent = body.ewaybill_no === undefined ? '' : String(body.ewaybill_no).trim();
  const number = checks.check(() => {
    if (sent !== '' && !EWAY_BILL_NUMBER.test(sent))
      throw invalid('ewaybill_no must be the 12 digits of an e-way bill number', 'ewaybill_no');
    return sent;
  });
  const date = checks.check(() => {
    const day = body.ewaybill_date?.trim() || null;
    if (day === null) return null;
    try {
      parseDay(day);
    } catch {
      throw invalid('ewaybill_date must be a calendar date, YYYY-MM-DD', 'ewaybill_date');
    }
    if (sent === '') throw invalid('ewaybill_date is sent with ewaybill_no, the bill it dates', 'ewaybill_date');
    return day;
  });
  checks.done();
  return number ? { number, date: date ?? null } : null;
}

/**
 * The buyer's GSTIN, upper-cased, its state code and check character checked (domain/paperwork/
 * gstin.ts): a tax invoice must not carry a wrong one. Undefined when none (or "") was sent.
 */
function readBuyerGstin(sent: string | undefined): string | undefined {
  const gstin = sent?.trim().toUpperCase();
  if (!gstin) return undefined;
  const problems = gstinProblems(gstin);
  if (problems.length > 0)
    throw invalid(`billing_gstin ${gstin} is not a valid GSTIN: ${problems.join('; ')}`, 'billing_gstin');
  return gstin;
}

/** Trimmed, blanks dropped, phone and pincode checked (both reported) and normalised; null when nothing is left. */
function readVendorDetails(input: VendorDetailsInput | undefined, directory: PincodeDirectory): VendorDetails | null {
  if (!input) return null;
  const vendor: VendorDetails = {};
  for (const [key, raw] of Object.entries(input) as [keyof VendorDetailsInput, string | number | undefined][]) {
    const text = raw === undefined ? '' : String(raw).trim();
    if (text) vendor[key] = text;
  }
  const checks = checkAll();
  const { phone, pin_code: pinCode } = vendor;
  if (phone !== undefined) vendor.phone = checks.check(() => resolvePhone(phone, 'vendor_details.phone'));
  if (pinCode !== undefined)
    vendor.pin_code = checks.check(() => resolvePincode(directory, pinCode, 'vendor_details.pin_code').pincode);
  checks.done();
  return Object.keys(vendor).length > 0 ? vendor : null;
}

/**
 * The checks a schema cannot express, and the conversion to internal units (paise, grams).
 * `courierAllowed`: whether the route may be sent carrier_id (forward-order books no courier).
 */
export function readOrderInput(
  body: CreateOrderInput,
  directory: PincodeDirectory,
  courierAllowed: boolean,
): OrderInput {
  // Independent checks, all reported together.
  const checks = checkAll();
  const orderDate = checks.check(() => readOrderDate(body.order_date));
  const billing = checks.check(() => readAddress(body, 'billing', directory));
  const shippingIsBilling = body.shipping_is_billing ?? true;
  const shipping = shippingIsBilling ? billing : checks.check(() => readAddress(body, 'shipping', directory));

  const paymentMethod = paymentMethodOf(body.payment_method);
  const subTotalPaise = rupeesToPaise(body.sub_total);
  const codPaise = rupeesToPaise(body.cod_collectible ?? 0);
  checks.check(() => {
    if (paymentMethod === 'cod' && codPaise <= 0) {
      throw invalid('cod_collectible must be greater than 0 for a COD order', 'cod_collectible');
    }
    if (paymentMethod === 'cod' && codPaise > subTotalPaise) {
      throw invalid('cod_collectible must not exceed the order value (sub_total)', 'cod_collectible');
    }
    if (paymentMethod === 'prepaid' && codPaise !== 0) {
      throw invalid('cod_collectible must be 0 for a PREPAID order', 'cod_collectible');
    }
  });
  const totalDiscountPaise = rupeesToPaise(body.total_discount ?? 0);
  checks.check(() => {
    if (totalDiscountPaise > subTotalPaise) {
      throw invalid('total_discount must not exceed the order value (sub_total)', 'total_discount');
    }
  });
  const pickupLocation = body.pickup_location?.trim() || undefined;
  checks.check(() => {
    if (!body.warehouse_id && pickupLocation === undefined) {
      throw invalid('warehouse_id is required, or pickup_location (a warehouse name)', 'warehouse_id');
    }
  });
  const vendorDetails = checks.check(() => readVendorDetails(body.vendor_details, directory));
  const ewayBill = checks.check(() => readEwayBill(body));
  const buyerGstin = checks.check(() => readBuyerGstin(body.billing_gstin));
  const packages = checks.check(() => readPackages(body, body.weight * 1000)) ?? null;
  checks.check(() => {
    if (!courierAllowed && body.carrier_id) {
      throw invalid('carrier_id belongs to forward-order-shipment or forward-order-orchestration', 'carrier_id');
    }
  });
  checks.done();

  return {
    merchantOrderId: body.order_id,
    orderDate: orderDate!,
    storeName: body.store_name,
    billing: billing!,
    shippingIsBilling,
    shipping: shipping!,
    paymentMethod,
    subTotalPaise,
    codPaise,
    lengthCm: body.length,
    breadthCm: body.breadth,
    heightCm: body.height,
    weightGrams: packages ? packages.reduce((sum, box) => sum + box.weightGrams, 0) : body.weight * 1000,
    packages,
    warehouseId: body.warehouse_id || undefined,
    pickupLocation,
    // Velocity: a blank carrier_id means "assign automatically".
    carrierId: body.carrier_id || undefined,
    channelRef: body.channel_id?.trim() || null,
    companyName: body.company_name?.trim() || null,
    ...(buyerGstin && { buyerGstin }),
    language: body.language ?? null,
    totalDiscountPaise,
    vendorDetails: vendorDetails ?? null,
    ewayBill: ewayBill ?? null,
    tags: body.tags ?? [],
    printLabel: body.print_label ?? true,
    items: body.order_items.map((item) => ({
      name: item.name.trim(),
      sku: item.sku.trim(),
      units: item.units,
      sellingPricePaise: rupeesToPaise(item.selling_price),
      discountPaise: rupeesToPaise(item.discount ?? 0),
      taxPercent: item.tax ?? null,
      hsn: item.hsn ?? null,
      category: item.category?.trim() || null,
    })),
  };
}

/** Re-reads a stored order as booking input, so a later courier assignment prices it the same way. */
export function orderInputOf(order: OrderRow, items: OrderItemRow[]): OrderInput {
  const address = (kind: 'billing' | 'shipping') => ({
    name: order[`${kind}Name`],
    lastName: order[`${kind}LastName`],
    address: order[`${kind}Address`],
    address2: order[`${kind}Address2`],
    city: order[`${kind}City`],
    pincode: order[`${kind}Pincode`],
    state: order[`${kind}State`],
    country: order[`${kind}Country`],
    email: order[`${kind}Email`],
    phone: order[`${kind}Phone`],
  });
  return {
    merchantOrderId: order.merchantOrderId,
    orderDate: order.orderDate,
    storeName: undefined,
    billing: address('billing'),
    shippingIsBilling: order.shippingIsBilling,
    shipping: address('shipping'),
    shippingAlternatePhone: order.shippingAlternatePhone,
    paymentMethod: order.paymentMethod as 'cod' | 'prepaid',
    subTotalPaise: order.subTotalPaise,
    codPaise: order.codCollectiblePaise,
    lengthCm: order.lengthCm,
    breadthCm: order.breadthCm,
    heightCm: order.heightCm,
    weightGrams: order.weightGrams,
    packages: order.packages,
    warehouseId: order.warehouseId,
    pickupLocation: undefined,
    carrierId: undefined,
    channelRef: order.channelRef,
    companyName: order.companyName,
    ...(order.buyerGstin && { buyerGstin: order.buyerGstin }),
    language: order.language,
    totalDiscountPaise: order.totalDiscountPaise,
    vendorDetails: order.vendorDetails,
    ewayBill: order.ewaybillNo === null ? null : { number: order.ewaybillNo, date: order.ewaybillDate },
    tags: order.tags,
    printLabel: order.printLabel,
    items: items.map((item) => ({
      name: item.name,
      sku: item.sku,
      units: item.units,
      sellingPricePaise: item.sellingPricePaise,
      discountPaise: item.discountPaise,
      taxPercent: item.taxPercent,
      hsn: item.hsn,
      category: item.category,
    })),
  };
}
