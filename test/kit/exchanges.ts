import type { TestContext } from '../app.js';
import { SHADOWFAX } from './couriers.js';
import { EXCHANGE_SETTINGS, exchange, exchangeBody } from './exchange-bodies.js';
import { authed } from './http.js';
import { DESTINATIONS, nextOrderId, type OrderFields } from './orders.js';
import { plainItem, qcItem, type ReturnFields } from './returns.js';

// Exchanges as a merchant makes them: the account's exchange terms set at PUT /exchange-settings
// when an exchange needs other terms than the account has, then POST /exchange-order-orchestration,
// which books the replacement and the old item's pickup together. Both legs are always booked with
// a courier; a leg's later states (cancelled, picked up, delivered, QC failed) come from
// POST /cancel-order and couriers' scans, as they do for any shipment or return.

/** The account's exchange terms, in PUT /exchange-settings' words; a term not given is its default. */
export interface ExchangeTerms {
  release_on?: 'at_once' | 'return_picked_up' | 'qc_passed';
  /** Rupees; null (the default) for the courier's. */
  qc_charge?: number | null;
  /** Rupees; default 0. */
  exchange_charge?: number;
}

const DEFAULT_TERMS = { release_on: 'at_once', qc_charge: null, exchange_charge: 0 } as const;

export interface ExchangeFields {
  /** The caller's order_id: the exchange's display_id, the replacement order's id and the return's. */
  displayId?: string;
  /**
   * The replacement: its courier (carrier_id, Shadowfax unless another), its buyer and address
   * (billing_*), payment, value and items, as an order's fields; `orderId` is sent as forward_order_id.
   */
  forward?: Omit<OrderFields, 'consignee' | 'tags'>;
  /** The old item: its courier (return_carrier_id; default the replacement's), QC, SKU and warehouse. */
  back?: Pick<ReturnFields, 'qc' | 'carrierId' | 'sku' | 'warehouseId'>;
  channel?: string;
  returnReason?: string;
  /**
   * The account's terms for this exchange: set with PUT /exchange-settings just before it is
   * booked, and the account's former terms put back after, so other exchanges keep theirs.
   */
  terms?: ExchangeTerms;
}

export interface BookedExchange {
  id: string;
  display_id: string;
  unique_id: string;
  /** The exchange's status in the booking's answer. */
  status: string;
  /** Velocity's `charges` of the booking's answer (rupees as two-decimal strings). */
  charges: {
    total: string;
    forward: { forward_charges: string; forward_cod_charges: string; forward_rto_charges: string };
    reverse: { return_pickup_charges: string; qc_charges: string; exchange_charges: string };
  };
  /** The replacement: its order, shipment, AWB and courier. */
  forward: { order_id: string; shipment_id: string; awb_code: string; courier_company_id: string | null };
  /** The old item's return: its id, shipment, AWB and courier. */
  back: { return_id: string; shipment_id: string; awb_code: string; courier_company_id: string | null };
}

type Terms = { release_on: string; qc_charge: number | null; exchange_charge: number };

async function readTerms(ctx: TestContext, apiKey: string): Promise<Terms> {
  const response = await ctx.app.inject({ method: 'GET', url: EXCHANGE_SETTINGS, headers: authed(apiKey) });
  if (response.statusCode !== 200) throw new Error(`exchange terms: ${response.statusCode} ${response.body}`);
  return response.json().data;
}

async function saveTerms(ctx: TestContext, apiKey: string, terms: Terms): Promise<void> {
  const response = await ctx.app.inject({
    method: 'PUT',
    url: EXCHANGE_SETTINGS,
    headers: authed(apiKey),
    payload: terms,
  });
  if (response.statusCode !== 200) throw new Error(`exchange terms refused: ${response.statusCode} ${response.body}`);
}

/** The exchange's body: exchangeBody's buyer and parcel, with the fields given. */
function bodyOf(warehouseId: string, displayId: string, f: ExchangeFields): Record<string, unknown> {
  const fw = f.forward ?? {};
  const back = f.back ?? {};
  const to = DESTINATIONS[fw.to ?? 'mumbai'];
  const value = fw.value ?? 998;
  // Fields left undefined are not sent.
  return exchangeBody(warehouseId, {
    order_id: displayId,
    forward_order_id: fw.orderId,
    ...(fw.orderDate !== undefined && { order_date: fw.orderDate }),
    carrier_id: fw.carrierId ?? SHADOWFAX,
    return_carrier_id: back.carrierId,
    channel: f.channel,
    store_name: fw.storeName,
    return_reason: f.returnReason,
    ...(fw.customer !== undefined && { billing_customer_name: fw.customer, billing_last_name: fw.lastName }),
    billing_city: to.city,
    billing_pincode: to.pincode,
    billing_state: to.state,
    ...(fw.phone !== undefined && { billing_phone: fw.phone }),
    ...(fw.email !== undefined && { billing_email: fw.email }),
    payment_method: fw.cod ? 'COD' : 'PREPAID',
    cod_collectible: fw.cod ? value : undefined,
    sub_total: value,
    order_items: fw.items ?? [{ name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: value / 2 }],
    forward_warehouse_id: fw.warehouseId ?? warehouseId,
    weight: fw.weight ?? 0.5,
    return_items: [back.qc ? qcItem(back.sku) : plainItem(back.sku)],
    return_warehouse_id: back.warehouseId,
  });
}

/** An exchange of the merchant's, booked through POST /exchange-order-orchestration. */
export async function bookExchangeForTest(
  ctx: TestContext,
  m: { apiKey: string; warehouseId: string },
  f: ExchangeFields = {},
): Promise<BookedExchange> {
  const displayId = f.displayId ?? nextOrderId('EXC');
  const former = f.terms && (await readTerms(ctx, m.apiKey));
  if (f.terms) await saveTerms(ctx, m.apiKey, { ...DEFAULT_TERMS, ...f.terms });
  const payload = await exchange(ctx, m.apiKey, bodyOf(m.warehouseId, displayId, f));
  if (former) await saveTerms(ctx, m.apiKey, former);
  const details = payload.exchange_order_details;
  return {
    id: payload.exchange_order_id,
    display_id: details.display_id,
    unique_id: details.unique_id,
    status: details.status,
    charges: payload.charges,
    forward: {
      order_id: payload.order_id,
      shipment_id: payload.forward_shipment_id,
      awb_code: payload.forward_awb,
      courier_company_id: payload.forward_shipment_details.courier_company_id,
    },
    back: {
      return_id: payload.return_id,
      shipment_id: payload.return_shipment_id,
      awb_code: payload.reverse_awb,
      courier_company_id: payload.return_shipment.courier_company_id,
    },
  };
}
