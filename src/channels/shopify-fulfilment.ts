import {
  type ChannelAdapter,
  ChannelCallError,
  type ChannelCredentials,
  type TrackingUpdate,
} from './channel-adapter.js';

// The write-back half of the Shopify adapter, as docs/channels-sources.md S5 shows the 2025-01
// Admin API: an order is fulfilled through its fulfillment orders (fulfillmentCreate), its tracking
// replaced (fulfillmentTrackingInfoUpdate), scans told as fulfillment events (fulfillmentEventCreate,
// the 2024-04 status set, since DELAYED and CARRIER_PICKED_UP came later) and called off
// (fulfillmentCancel). A refused mutation answers 200 with userErrors, not a GraphQL error.

type Json = Record<string, unknown>;
type ShopifyCredentials = Extract<ChannelCredentials, { channel: 'shopify' }>;
/** The adapter's one GraphQL call: throttling waited out, transport and token failures in our words. */
export type ShopifyGraphql = (credentials: ShopifyCredentials, query: string, variables?: Json) => Promise<Json>;
export type ShopifyWriteBack = Pick<
  ChannelAdapter,
  'writeFulfilment' | 'updateFulfilment' | 'writeTrackingUpdate' | 'cancelFulfilment'
>;

const record = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Statuses a fulfillment order can still be fulfilled from; the rest are done, held or not yet due. */
const FULFILLABLE = new Set(['OPEN', 'IN_PROGRESS']);
/** An order is fulfilled at most a few times; 20 is more than any order Dakiya ships in parts. */
const ORDER_FULFILMENTS_QUERY = `query($id:ID!){order(id:$id){id
  fulfillmentOrders(first:10){edges{node{id status}}}
  fulfillments(first:20){id status trackingInfo{number}}}}`;
const CREATE = `mutation($f:FulfillmentInput!){fulfillmentCreate(fulfillment:$f){
  fulfillment{id status trackingInfo{company number url}} userErrors{field message}}}`;
const UPDATE = `mutation($id:ID!,$t:FulfillmentTrackingInput!,$n:Boolean){
  fulfillmentTrackingInfoUpdate(fulfillmentId:$id, trackingInfoInput:$t, notifyCustomer:$n){
  fulfillment{id status trackingInfo{company number url}} userErrors{field message}}}`;
const EVENT = `mutation($e:FulfillmentEventInput!){fulfillmentEventCreate(fulfillmentEvent:$e){
  fulfillmentEvent{id status message happenedAt} userErrors{field message}}}`;
const CANCEL = `mutation($id:ID!){fulfillmentCancel(id:$id){fulfillment{id status} userErrors{field message}}}`;
const FULFILMENT_STATUS = 'query($id:ID!){fulfillment(id:$id){id status}}';

const EVENT_STATUS: Record<TrackingUpdate['status'], string> = {
  in_transit: 'IN_TRANSIT',
  out_for_delivery: 'OUT_FOR_DELIVERY',
  attempted_delivery: 'ATTEMPTED_DELIVERY',
  delivered: 'DELIVERED',
  failure: 'FAILURE',
};

/** The channel's order id is Shopify's numeric one (legacyResourceId); mutations name the GID. */
const orderGid = (channelOrderId: string) =>
  channelOrderId.startsWith('gid://') ? channelOrderId : `gid://shopify/Order/${channelOrderId}`;

export function createShopifyWriteBack(
  shopify: (c: ChannelCredentials) => ShopifyCredentials,
  graphql: ShopifyGraphql,
) {
  /** A mutation's payload; its userErrors are Shopify refusing this call, which repeating would not change. */
  async function mutate(credentials: ShopifyCredentials, field: string, query: string, variables: Json) {
    const data = await graphql(credentials, query, variables);
    const payload = record(data[field]);
    if (!payload) throw new ChannelCallError('malformed', `Shopify answered no ${field} payload`);
    const userErrors = list(payload.userErrors).map(record);
    if (userErrors.length > 0)
      throw new ChannelCallError(
        'rejected',
        `Shopify refused ${field}: ${userErrors.map((e) => String(e?.message)).join('; ')}`,
      );
    return payload;
  }

  const writeBack: ShopifyWriteBack = {
    async writeFulfilment(credentials, fulfilment) {
      const creds = shopify(credentials);
      const data = await graphql(creds, ORDER_FULFILMENTS_QUERY, { id: orderGid(fulfilment.channelOrderId) });
      const order = record(data.order);
      if (!order) throw new ChannelCallError('rejected', `Shopify has no order ${fulfilment.channelOrderId}`);
      // A retry after a lost answer finds the fulfilment its first try made; a cancelled one is not it.
      for (const item of list(order.fulfillments)) {
        const existing = record(item);
        const numbers = list(existing?.trackingInfo).map((t) => record(t)?.number);
        if (existing?.status !== 'CANCELLED' && numbers.includes(fulfilment.awb) && typeof existing?.id === 'string')
          return { reference: existing.id };
      }
      const open = list(record(order.fulfillmentOrders)?.edges)
        .map((edge) => record(record(edge)?.node))
        .filter((node) => FULFILLABLE.has(String(node?.status)) && typeof node?.id === 'string');
      if (open.length === 0)
        throw new ChannelCallError(
          'rejected',
          `nothing left to fulfil on Shopify order ${fulfilment.channelOrderId}: no open fulfillment order`,
        );
      // Without fulfillmentOrderLineItems every remaining line is fulfilled: one parcel carries the order.
      const payload = await mutate(creds, 'fulfillmentCreate', CREATE, {
        f: {
          lineItemsByFulfillmentOrder: open.map((node) => ({ fulfillmentOrderId: node?.id })),
          trackingInfo: { company: fulfilment.courierName, number: fulfilment.awb, url: fulfilment.trackingUrl },
          notifyCustomer: fulfilment.notifyCustomer,
        },
      });
      const id = record(payload.fulfillment)?.id;
      if (typeof id !== 'string')
        throw new ChannelCallError('malformed', 'Shopify created a fulfillment without an id');
      return { reference: id };
    },

    async updateFulfilment(credentials, reference, fulfilment) {
      await mutate(shopify(credentials), 'fulfillmentTrackingInfoUpdate', UPDATE, {
        id: reference,
        t: { company: fulfilment.courierName, number: fulfilment.awb, url: fulfilment.trackingUrl },
        n: fulfilment.notifyCustomer,
      });
      return { reference };
    },

    async writeTrackingUpdate(credentials, reference, _channelOrderId, update) {
      const event: Json = {
        fulfillmentId: reference,
        status: EVENT_STATUS[update.status],
        message: update.message,
        happenedAt: update.happenedAt.toISOString(),
      };
      if (update.city) event.city = update.city;
      await mutate(shopify(credentials), 'fulfillmentEventCreate', EVENT, { e: event });
    },

    async cancelFulfilment(credentials, reference) {
      const creds = shopify(credentials);
      try {
        await mutate(creds, 'fulfillmentCancel', CANCEL, { id: reference });
      } catch (error) {
        if (!(error instanceof ChannelCallError) || error.kind !== 'rejected') throw error;
        // Cancelling twice is refused; the fulfilment being cancelled is what was asked, however it came to be.
        const data = await graphql(creds, FULFILMENT_STATUS, { id: reference });
        if (record(data.fulfillment)?.status !== 'CANCELLED') throw error;
      }
    },
  };
  return writeBack;
}
