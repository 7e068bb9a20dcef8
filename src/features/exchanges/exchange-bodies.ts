import { DomainError, type FieldError } from '../../domain/errors.js';
import { rupeesToPaise } from '../../domain/money.js';
import type { CreateExchangeInput } from './exchanges.schemas.js';

// An exchange is two ordinary bookings: the replacement as forward-order-orchestration takes it and
// the old item's pickup as reverse-order-orchestration takes it. Their bodies are made here from
// the exchange's, and a leg's refusal is told back in the exchange's field names.

const DEFAULT_CHANNEL = 'website';
export const DEFAULT_RETURN_REASON = 'Return';

interface PricedItem {
  units: number;
  selling_price: number;
  discount?: number;
}

/** The items' value in rupees: each unit's price less its discount, counted in paise. */
export function itemsValue(items: readonly PricedItem[]): number {
  const paise = items.reduce(
    (sum, item) =>
      sum + item.units * Math.max(0, rupeesToPaise(item.selling_price) - rupeesToPaise(item.discount ?? 0)),
    0,
  );
  return paise / 100;
}

const withPrefix = (input: CreateExchangeInput, prefix: string) =>
  Object.fromEntries(Object.entries(input).filter(([name]) => name.startsWith(prefix)));

export const channelOf = (input: CreateExchangeInput) => input.channel?.trim() || DEFAULT_CHANNEL;

/** The replacement: a forward order to the billing address, from forward_warehouse_id. */
export function forwardBody(input: CreateExchangeInput): Record<string, unknown> {
  return {
    order_id: input.forward_order_id ?? input.order_id,
    order_date: input.order_date,
    ...(input.carrier_id !== undefined && { carrier_id: input.carrier_id }),
    ...(input.store_name !== undefined && { store_name: input.store_name }),
    channel_id: channelOf(input),
    ...withPrefix(input, 'billing_'),
    shipping_is_billing: true,
    order_items: input.order_items,
    payment_method: input.payment_method,
    sub_total: input.sub_total ?? itemsValue(input.order_items),
    ...(input.cod_collectible !== undefined && { cod_collectible: input.cod_collectible }),
    length: input.length,
    breadth: input.breadth,
    height: input.height,
    weight: input.weight,
    warehouse_id: input.forward_warehouse_id,
    ...(input.ewaybill_no !== undefined && { ewaybill_no: input.ewaybill_no }),
    ...(input.ewaybill_date !== undefined && { ewaybill_date: input.ewaybill_date }),
  };
}

/** The old item: a prepaid return from the pickup address to return_warehouse_id (default the forward one). */
export function returnBody(input: CreateExchangeInput): Record<string, unknown> {
  const carrierId = input.return_carrier_id ?? input.carrier_id;
  return {
    order_id: input.order_id,
    order_date: input.order_date,
    ...(carrierId !== undefined && { carrier_id: carrierId }),
    channel_id: channelOf(input),
    ...withPrefix(input, 'pickup_'),
    order_items: input.return_items.map(({ qc_questions: _, ...item }) => item),
    payment_method: 'PREPAID',
    sub_total: itemsValue(input.return_items),
    length: input.return_length ?? input.length,
    breadth: input.return_breadth ?? input.breadth,
    height: input.return_height ?? input.height,
    weight: input.return_weight ?? input.weight,
    warehouse_id: input.return_warehouse_id ?? input.forward_warehouse_id,
    ...(input.original_order_id !== undefined && { forward_order_id: input.original_order_id }),
  };
}

/** Which exchange field each field of a leg's body came from, where the names differ. */
export function forwardFieldNames(input: CreateExchangeInput): Record<string, string> {
  return {
    warehouse_id: 'forward_warehouse_id',
    ...(input.forward_order_id !== undefined && { order_id: 'forward_order_id' }),
    // Made from the items when not sent.
    ...(input.sub_total === undefined && { sub_total: 'order_items' }),
  };
}

export function returnFieldNames(input: CreateExchangeInput): Record<string, string> {
  const sent = (name: string, fallback: string) => (name in input ? name : fallback);
  return {
    order_items: 'return_items',
    sub_total: 'return_items',
    warehouse_id: sent('return_warehouse_id', 'forward_warehouse_id'),
    length: sent('return_length', 'length'),
    breadth: sent('return_breadth', 'breadth'),
    height: sent('return_height', 'height'),
    weight: sent('return_weight', 'weight'),
    ...(input.return_carrier_id !== undefined && { carrier_id: 'return_carrier_id' }),
    forward_order_id: 'original_order_id',
  };
}

/** A leg's field path (`order_items.0.sku`) under the exchange's name for it (`return_items.0.sku`). */
function renamed(path: string, names: Record<string, string>): string {
  const [head, ...rest] = path.split('.');
  const name = names[head!];
  return name === undefined ? path : [name, ...rest].join('.');
}

/** A message that opens with the field it names, opening with the exchange's name instead. */
function renamedMessage(message: string, field: string | undefined, names: Record<string, string>): string {
  if (field === undefined || !message.startsWith(field)) return message;
  return renamed(field, names) + message.slice(field.length);
}

/**
 * A leg's refusal in the exchange's terms: its fields renamed, and, for the pickup's, its words
 * saying which leg refused, since a field such as pickup_pincode or carrier_id is the same in both.
 */
export function inExchangeTerms(error: unknown, names: Record<string, string>, leg: 'replacement' | 'pickup'): unknown {
  if (!(error instanceof DomainError)) return error;
  const details = error.details?.map(
    (detail): FieldError => ({
      field: renamed(detail.field, names),
      message: renamedMessage(detail.message, detail.field, names),
    }),
  );
  const messages = error.messages.map((message) => {
    const field = error.details?.find((detail) => message.startsWith(detail.field))?.field;
    return `${leg === 'replacement' ? "The replacement's booking" : "The old item's pickup"}: ${renamedMessage(message, field, names)}`;
  });
  return new DomainError(error.kind, messages, details, error.code, error.retryAfterSeconds);
}
