/**
 * The ids the OpenAPI examples use for things a user already has (a warehouse, a store, a booked
 * AWB, …). "Try it out" works once the user pastes their own in their place; the examples test
 * (test/openapi-examples.once.test.ts) puts real ones there, made in a fresh account, before sending
 * every documented request. A new example that names an existing resource uses these values, so
 * that test can substitute it.
 */
export const EXAMPLE = {
  /** The account of the example (operator routes). */
  accountId: '5e0c9a7d-2b14-4f6e-9c83-71a4d2e6b0f9',
  /** Its name, as the panel shows it (what an owner confirms a deletion with). */
  accountName: 'Acme Apparel India',
  /** An export of the account, written and ready to download (POST /account/exports). */
  accountExportId: '3b5d7f91-2c4e-4a6b-8d0f-1e3a5c7e9b2d',
  /** An API key's id (operator routes). */
  apiKeyId: '8b3f6c21-94d7-4e0a-a5c2-3f9e1d7b6a40',
  /** A store with a logo, made by POST /client-stores. */
  storeId: 'a3c1e2d4-5b6f-4a7b-8c9d-0e1f2a3b4c5d',
  /** Its logo's version (logo_url's `v`). */
  logoVersion: '9f2c4e6a8b0d1e3f',
  /**
   * The store name the order examples link to: the one the store example creates. Not the README's
   * first steps' names (acme-apparel, acme-shoes), so that a user who followed them can still send it.
   */
  storeName: 'acme-online',
  /** A warehouse, made by POST /warehouse: the id a user pastes into the order and return examples. */
  warehouseId: '0b7c3f8e-4a1d-4c55-9a65-2f1e8d9c0a11',
  /** The merchant's id of an order made by POST /forward-order (PUT /order updates it); the README's is ORD-10045. */
  orderId: 'ORD-20045',
  /** An order over the e-way bill limit stored without its bill, whose Part A POST /orders/{order_id}/ewaybill generates. */
  ewayBillOrderId: 'ORD-20062',
  /** Its shipment, still without a courier (POST /forward-order-shipment books it). */
  shipmentId: '3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  /** A shipment booked with a courier and awaiting pickup (POST /forward-order-orchestration). */
  bookedShipmentId: '7c8d9e0f-1a2b-4c3d-9e4f-5a6b7c8d9e0f',
  /** Its AWB. */
  awb: 'SFX0000000001',
  /** Its label link's expiry and signature (label_url's query). */
  labelExpires: '1795242600',
  labelSignature: 'Xq7Lm2Pz9Rt4Vb8Nc1Kd6Fh3Jw5Ys0Ga-Ue_TiOoBnE',
  /** The AWB of a shipment whose delivery failed (ndr_raised): what NDR actions act on. */
  ndrAwb: 'SFX0000000002',
  /** A courier's open NDR instruction. */
  actionId: '2a4c6e80-1b3d-4f5a-8c7e-9d0f1a2b3c4d',
  /** A delivered shipment of the store, whose return policy takes requests (PUT /client-stores/:id/return-policy). */
  deliveredShipmentId: '8e2a4c6d-0f1b-4d3e-a5c7-9b1d3f5a7c9e',
  /** Its order's merchant id: a buyer whose parcel is delivered, whom an erasure can erase (POST /buyer-erasures). */
  deliveredOrderId: 'ORD-20051',
  /** A buyer's return request for it (POST /return-requests). */
  returnRequestId: '0f3c9a51-7b2e-4d6a-9c1f-8e5b2a7d4c30',
  refundId: '6d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a',
  /** A return made by POST /reverse-order, not yet booked with a courier. */
  returnId: '6f1d2c3b-8a9e-4f10-b2c4-5d6e7f8a9b0c',
  /** The customer's tracking link token of the booked shipment (track_url's last part). */
  trackToken: 'q2Xn8V0bTgK4mYc1Pz7wAa',
  /** A webhook endpoint, made by POST /webhooks. */
  webhookId: '4e8a2c6f-1b3d-4f5e-9a7c-8d0b2e4f6a13',
  /** One of its deliveries (POST /webhooks/:id/test makes one). */
  webhookDeliveryId: '9d1f3b5e-7a2c-4e6f-8b0d-2c4e6a8f0b35',
  /** A weight discrepancy, opened by POST /weight-reports for the booked shipment (disputed by POST /weight-disputes/:id/dispute). */
  weightDisputeId: '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b',
  /** A courier allocation rule, made by POST /allocation/rules. */
  allocationRuleId: '5b7d9f1e-3a5c-4e7a-9c1e-3f5a7c9e1b3d',
  /** The courier service the booking examples name (and a courier token is issued for). */
  carrierId: 'CARSHFXSTD001',
  /** A pickup of the booked shipment (POST /pickups). */
  pickupId: '5a7c9e1b-3d5f-4a7b-9c1d-2e4f6a8b0c2d',
  /** A courier API an account stores its own credentials for. */
  courierApi: 'ekart',
  /** A store connected to its Shopify shop by POST /channels (the Shopify example). */
  channelId: '6c8e0a2b-4d6f-4a8c-9e1b-3d5f7a9c1e2f',
  /** A store order that channel refused to import (GET /channels/:id/orders?state=refused). */
  channelOrderId: '5412873600001',
  /**
   * The WooCommerce site of POST /channels' example (the examples test points it at its simulator,
   * as a user points it at their own site).
   */
  wooSiteUrl: 'https://shop.acme-online.in',
  /** A member of the account, invited by POST /members (its e-mail is a login: global, like the username). */
  memberId: '2d7e4b90-6c1a-4f38-b5e2-9a0c3d8f1e67',
  memberEmail: 'meera@acme.example',
  /** A role of the account's own, defined by POST /roles. */
  roleName: 'packing-desk',
  /** The login of the account examples (a username is global, unlike the ids above). */
  username: 'acme',
  password: 's3cret-pass',
} as const;

/** When the example orders and returns were made, as every answer of theirs says it. */
export const ASSIGNED_DATE_TIME = { date: '2026-11-20T12:00:00.000+05:30', timezone_type: 3, timezone: 'Asia/Kolkata' };
/** Velocity's fields that Dakiya answers null, forward and return alike. */
export const NO_ROUTING = { routing_code: null, rto_routing_code: null, pickup_token_number: null };

/** The return the orchestration example makes, which the returns listing example lists. */
export const EXAMPLE_ORCHESTRATED_RETURN_ID = 'b7d9f1a3-c5e7-4f90-a2b4-c6d8e0f2a4b6';

/** A listing example's meta: the first of two pages of one, the next after the one listed. */
export const firstPageOfTwo = (listedId: string) => ({
  current_page: 1,
  per_page: 1,
  total: 2,
  next_search_after: ['1795156200000', listedId],
});
