import type { Permission } from './domain/access/permissions.js';
import type { StoreReach } from './domain/access/store-reach.js';

// The one permission table (issue 51): every route of the account API (/custom/api/v1) and the
// permission a credential needs to call it, read by one hook (http/permission-guard.ts). A route
// missing here, or an entry naming no route, fails the app's start. Velocity's listings are POSTs
// that read: they need the read permission.
const TABLE: Record<string, Permission> = {
  'POST /rates': 'shipments:read',
  'POST /serviceability': 'shipments:read',
  'GET /carriers': 'shipments:read',
  'GET /pincodes/:pincode': 'shipments:read',
  'GET /shipments/:id/label': 'shipments:read',
  'GET /shipments/:id/invoice': 'shipments:read',
  'POST /invoices': 'shipments:read',
  'POST /labels': 'shipments:read',
  'GET /kept-scans': 'shipments:read',
  'POST /forward-order/check': 'shipments:read',
  'GET /channels/:id/orders': 'shipments:read',
  'GET /pickups': 'shipments:read',
  'GET /pickups/:id': 'shipments:read',
  'GET /pickups/:id/manifest.pdf': 'shipments:read',
  'POST /shipments': 'shipments:read',
  'POST /reports': 'shipments:read',
  'GET /events': 'shipments:read',
  'GET /shipments/:id/notifications': 'shipments:read',
  'GET /shipments/:id/emails': 'shipments:read',
  'GET /shipments/:id/confirmation': 'shipments:read',
  'POST /shipments/:id/label/reissue': 'shipments:write',
  'POST /kept-scans/replay': 'shipments:write',
  'POST /reattempt': 'ndr:write',
  'POST /initiate-rto': 'ndr:write',
  'POST /forward-order': 'shipments:write',
  'POST /forward-order-shipment': 'shipments:write',
  'POST /forward-order-orchestration': 'shipments:write',
  'PUT /order': 'shipments:write',
  'POST /orders/:order_id/ewaybill': 'shipments:write',
  'POST /cancel-order': 'shipments:write',
  'POST /channels/:id/sync': 'shipments:write',
  'POST /channels/:id/orders/:channel_order_id/retry': 'shipments:write',
  'POST /pickups': 'shipments:write',
  'POST /shipments/:id/cod-to-prepaid': 'ndr:write',
  'POST /order-tracking': 'tracking:read',
  'GET /meta/statuses': 'tracking:read',
  'GET /return-requests': 'returns:read',
  'GET /return-requests/:id': 'returns:read',
  'GET /return-requests/:id/photos/:position': 'returns:read',
  'POST /returns': 'returns:read',
  'POST /exchange-orders': 'returns:read',
  'GET /return-reports': 'returns:read',
  'POST /reverse-order': 'returns:write',
  'POST /reverse-order-shipment': 'returns:write',
  'POST /reverse-order-orchestration': 'returns:write',
  'POST /exchange-order-orchestration': 'returns:write',
  'POST /return-requests': 'returns:write',
  'POST /return-requests/:id/approve': 'returns:write',
  'POST /return-requests/:id/reject': 'returns:write',
  'POST /cod-remittance': 'money:read',
  'POST /settlement-status': 'money:read',
  'GET /refunds': 'money:read',
  'GET /refunds/:id': 'money:read',
  'GET /refunds/:id/payee': 'money:read',
  'GET /weight-disputes': 'money:read',
  'GET /weight-disputes/:id': 'money:read',
  'GET /weight-disputes/:id/evidence/:position': 'money:read',
  'GET /return-reports/refunds': 'money:read',
  'POST /shipping-charges': 'money:read',
  'GET /shipping-charges': 'money:read',
  'GET /cod/receivables': 'money:read',
  'GET /cod/receivables/export': 'money:read',
  'GET /cod/remittances': 'money:read',
  'GET /cod/remittances/export': 'money:read',
  'GET /cod/discrepancies': 'money:read',
  'GET /cod/discrepancies/export': 'money:read',
  'GET /cod/reconciliation': 'money:read',
  'GET /cod/reconciliation/export': 'money:read',
  'POST /cod/remittance-files': 'money:write',
  'POST /refunds/:id/initiate': 'money:write',
  'POST /refunds/:id/complete': 'money:write',
  'POST /refunds/:id/fail': 'money:write',
  'POST /weight-disputes/:id/accept': 'money:write',
  'POST /weight-disputes/:id/dispute': 'money:write',
  'POST /weight-reports': 'money:write',
  'GET /api-keys': 'settings:read',
  'GET /client-stores': 'settings:read',
  'GET /client-stores/:id': 'settings:read',
  'GET /warehouse': 'settings:read',
  'GET /warehouses': 'settings:read',
  'GET /warehouses/:id': 'settings:read',
  'GET /courier-connections': 'settings:read',
  'GET /allocation/rules': 'settings:read',
  'GET /allocation/rules/:id': 'settings:read',
  'POST /allocation/preview': 'settings:read',
  'GET /exchange-settings': 'settings:read',
  'GET /client-stores/:id/return-policy': 'settings:read',
  'GET /client-stores/:id/invoice-details': 'settings:read',
  'GET /channels': 'settings:read',
  'GET /channels/:id': 'settings:read',
  'GET /rto-risk/thresholds': 'settings:read',
  'GET /ndr-rules': 'settings:read',
  'GET /webhooks': 'settings:read',
  'GET /webhooks/:id': 'settings:read',
  'GET /webhooks/:id/deliveries': 'settings:read',
  'GET /messaging/channels': 'settings:read',
  'GET /messaging/confirmation-policy': 'settings:read',
  'GET /paperwork-settings': 'settings:read',
  'GET /paperwork-settings/eway-bill-gateway': 'settings:read',
  'GET /privacy-settings': 'settings:read',
  'DELETE /auth-token': 'settings:write',
  'POST /api-keys': 'settings:write',
  'DELETE /api-keys/:id': 'settings:write',
  'POST /client-stores': 'settings:write',
  'PUT /client-stores/:id': 'settings:write',
  'DELETE /client-stores/:id': 'settings:write',
  'POST /warehouse': 'settings:write',
  'PUT /courier-connections/:connector/credentials': 'settings:write',
  'DELETE /courier-connections/:connector/credentials': 'settings:write',
  'POST /allocation/rules': 'settings:write',
  'PUT /allocation/rules/:id': 'settings:write',
  'DELETE /allocation/rules/:id': 'settings:write',
  'PUT /exchange-settings': 'settings:write',
  'PUT /client-stores/:id/return-policy': 'settings:write',
  'PUT /client-stores/:id/invoice-details': 'settings:write',
  'POST /channels': 'settings:write',
  'PATCH /channels/:id': 'settings:write',
  'DELETE /channels/:id': 'settings:write',
  'PUT /rto-risk/thresholds': 'settings:write',
  'PUT /paperwork-settings': 'settings:write',
  'PUT /paperwork-settings/eway-bill-gateway': 'settings:write',
  'DELETE /paperwork-settings/eway-bill-gateway': 'settings:write',
  'PUT /privacy-settings': 'settings:write',
  'PUT /ndr-rules': 'settings:write',
  'POST /webhooks': 'settings:write',
  'PUT /webhooks/:id': 'settings:write',
  'DELETE /webhooks/:id': 'settings:write',
  'POST /webhooks/:id/rotate-secret': 'settings:write',
  'POST /webhooks/:id/test': 'settings:write',
  'POST /webhooks/:id/deliveries/:delivery_id/redeliver': 'settings:write',
  'PUT /messaging/channels/:channel': 'settings:write',
  'PUT /messaging/confirmation-policy': 'settings:write',
  'GET /security': 'settings:read',
  'GET /audit-log': 'audit:read',
  'POST /buyer-erasures': 'buyers:erase',
  'PUT /security': 'members:manage',
  'GET /roles': 'members:manage',
  'POST /roles': 'members:manage',
  'PUT /roles/:name': 'members:manage',
  'DELETE /roles/:name': 'members:manage',
  'GET /members': 'members:manage',
  'POST /members': 'members:manage',
  'PATCH /members/:id': 'members:manage',
  'POST /members/:id/suspend': 'members:manage',
  'POST /members/:id/reactivate': 'members:manage',
  'POST /members/:id/invitation': 'members:manage',
  'DELETE /members/:id': 'members:manage',
  // Owner only besides (consumers/privacy/account-deletion.service.ts).
  'GET /account/deletion': 'members:manage',
  'POST /account/deletion': 'members:manage',
  'DELETE /account/deletion': 'members:manage',
  // Owner or admin besides (consumers/privacy/account-export.service.ts): the archive holds everything.
  'POST /account/exports': 'members:manage',
  'GET /account/exports': 'members:manage',
  'GET /account/exports/:id': 'members:manage',
  'GET /account/exports/:id/archive': 'members:manage',
};

export const ROUTE_PERMISSIONS: ReadonlyMap<string, Permission> = new Map(Object.entries(TABLE));

/**
 * Answers that print buyers' details and cannot be masked without being useless (a label the
 * courier delivers by, the bank details a refund is paid to): they need `buyers:read` besides
 * their permission above. Every other answer is masked instead (domain/access/buyer-data.ts).
 */
export const BUYER_DOCUMENTS: ReadonlySet<string> = new Set([
  'GET /shipments/:id/label',
  'GET /shipments/:id/invoice',
  'POST /invoices',
  'POST /labels',
  'GET /refunds/:id/payee',
]);

/**
 * A body field sent as one string or a list of them, as Velocity's loose typing allows, trimmed as
 * the services trim them: ' AWB' finds the shipment here as it does there.
 */
const strings = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value])
    .filter((one): one is string => typeof one === 'string')
    .map((one) => one.trim())
    .filter((one) => one !== '');
const field = (body: unknown, name: string): unknown => (body as Record<string, unknown> | undefined)?.[name];
const param = (params: unknown, name = 'id'): string[] => strings((params as Record<string, unknown>)[name]);

const shipmentInPath: StoreReach = ({ params }) => ({ shipments: param(params) });
const storeInPath: StoreReach = ({ params }) => ({ stores: param(params) });
const blank = (value: unknown) => typeof value !== 'string' || value.trim() === '';
const ORDER_STORE = { field: 'store_name', why: 'an order it books names one of them' };
const booking: StoreReach = ({ body }) =>
  blank(field(body, 'store_name'))
    ? { unplaced: ORDER_STORE }
    : { booksInto: { storeName: field(body, 'store_name') } };
/** A return's store is its forward shipment's: a limited credential books only returns of its stores' shipments. */
const returnBooking: StoreReach = ({ body }) =>
  blank(field(body, 'forward_awb')) && blank(field(body, 'forward_order_id'))
    ? {
        unplaced: {
          field: 'forward_awb',
          why: 'a return it books names the forward shipment it returns (forward_awb or forward_order_id)',
        },
      }
    : { shipments: strings(field(body, 'forward_awb')), orders: strings(field(body, 'forward_order_id')) };
/** An exchange is its replacement's store's; the old item's order, when named, must be of the credential's stores too. */
const exchangeBooking: StoreReach = (request) => ({
  ...booking(request),
  orders: strings(field(request.body, 'original_order_id')),
});
const byAwbs: StoreReach = ({ body }) => ({ shipments: strings(field(body, 'awbs')) });
const requestInPath: StoreReach = ({ params }) => ({ returnRequests: param(params) });
const refundInPath: StoreReach = ({ params }) => ({ refunds: param(params) });
const disputeInPath: StoreReach = ({ params }) => ({ weightDisputes: param(params) });
const pickupInPath: StoreReach = ({ params }) => ({ pickups: param(params) });
/** A pickup a limited credential asks for names its parcels: left out, it would gather every store's. */
const pickupBooking: StoreReach = (request) =>
  strings(field(request.body, 'awbs')).length === 0
    ? { unplaced: { field: 'awbs', why: 'a pickup it asks for names its parcels (awbs), of its stores' } }
    : byAwbs(request);

/**
 * How each account route keeps to a store-limited credential (issue 51; domain/access/store-reach.ts),
 * read by one hook (http/store-guard.ts). A route not named here answers for every store at once
 * (the event feed, file imports, webhooks, channels, settings of the whole account): a credential
 * limited to stores is refused it, so a route added later is closed to them until it says how it
 * keeps to their stores.
 */
const STORE_TABLE: Record<string, StoreReach> = {
  'POST /rates': 'account',
  'POST /serviceability': 'account',
  'GET /carriers': 'account',
  'GET /pincodes/:pincode': 'account',
  'GET /meta/statuses': 'account',
  'GET /warehouse': 'account',
  'GET /warehouses': 'account',
  'GET /warehouses/:id': 'account',
  // What a booking would be refused or get, from the body alone: nothing is read of a store.
  'POST /forward-order/check': 'account',
  'POST /allocation/preview': 'account',
  'POST /shipments': 'filtered',
  'POST /reports': 'filtered',
  'GET /cod/receivables': 'filtered',
  'GET /cod/receivables/export': 'filtered',
  'GET /cod/remittances': 'filtered',
  'GET /cod/remittances/export': 'filtered',
  'GET /cod/discrepancies': 'filtered',
  'GET /cod/discrepancies/export': 'filtered',
  'GET /cod/reconciliation': 'filtered',
  'GET /cod/reconciliation/export': 'filtered',
  'GET /client-stores': 'filtered',
  'GET /shipping-charges': 'filtered',
  'POST /shipping-charges': byAwbs,
  'POST /cod-remittance': byAwbs,
  'POST /settlement-status': byAwbs,
  // Within the maker's stores, as the service settles them (tenancy/accounts/store-limits.ts).
  'POST /api-keys': 'filtered',
  'GET /client-stores/:id': storeInPath,
  'PUT /client-stores/:id': storeInPath,
  'GET /client-stores/:id/return-policy': storeInPath,
  'PUT /client-stores/:id/return-policy': storeInPath,
  'GET /client-stores/:id/invoice-details': storeInPath,
  'PUT /client-stores/:id/invoice-details': storeInPath,
  'GET /shipments/:id/label': shipmentInPath,
  'GET /shipments/:id/invoice': shipmentInPath,
  'POST /shipments/:id/label/reissue': shipmentInPath,
  'GET /shipments/:id/notifications': shipmentInPath,
  'GET /shipments/:id/emails': shipmentInPath,
  'GET /shipments/:id/confirmation': shipmentInPath,
  'POST /shipments/:id/cod-to-prepaid': shipmentInPath,
  'POST /labels': byAwbs,
  'POST /invoices': byAwbs,
  'POST /order-tracking': byAwbs,
  'POST /cancel-order': ({ body }) => ({
    shipments: [...strings(field(body, 'awbs')), ...strings(field(body, 'shipment_id'))],
  }),
  'POST /reattempt': ({ body }) => ({ shipments: strings(field(body, 'awb')) }),
  'POST /initiate-rto': ({ body }) => ({ shipments: strings(field(body, 'awb')) }),
  'POST /orders/:order_id/ewaybill': ({ params }) => ({ orders: param(params, 'order_id') }),
  'PUT /order': ({ body }) => ({
    orders: strings(field(body, 'order_id')),
    ...(field(body, 'store_name') !== undefined && { booksInto: { storeName: field(body, 'store_name') } }),
  }),
  'POST /forward-order': booking,
  'POST /forward-order-orchestration': booking,
  'POST /forward-order-shipment': ({ body }) => ({ shipments: strings(field(body, 'shipment_id')) }),
  'POST /reverse-order': returnBooking,
  'POST /reverse-order-orchestration': returnBooking,
  'POST /exchange-order-orchestration': exchangeBooking,
  'POST /returns': 'filtered',
  'POST /exchange-orders': 'filtered',
  'POST /reverse-order-shipment': ({ body }) => ({ returns: strings(field(body, 'return_id')) }),
  'GET /return-requests': 'filtered',
  'GET /return-requests/:id': requestInPath,
  'GET /return-requests/:id/photos/:position': requestInPath,
  'POST /return-requests': ({ body }) => ({ shipments: strings(field(body, 'shipment_id')) }),
  'POST /return-requests/:id/approve': requestInPath,
  'POST /return-requests/:id/reject': requestInPath,
  'GET /return-reports': 'filtered',
  'GET /return-reports/refunds': 'filtered',
  'GET /refunds': 'filtered',
  'GET /refunds/:id': refundInPath,
  'GET /refunds/:id/payee': refundInPath,
  'POST /refunds/:id/initiate': refundInPath,
  'POST /refunds/:id/complete': refundInPath,
  'POST /refunds/:id/fail': refundInPath,
  'POST /pickups': pickupBooking,
  'GET /pickups': 'filtered',
  'GET /pickups/:id': pickupInPath,
  'GET /pickups/:id/manifest.pdf': pickupInPath,
  'GET /weight-disputes': 'filtered',
  'GET /weight-disputes/:id': disputeInPath,
  'GET /weight-disputes/:id/evidence/:position': disputeInPath,
  'POST /weight-disputes/:id/accept': disputeInPath,
  'POST /weight-disputes/:id/dispute': disputeInPath,
};

export const STORE_REACH: ReadonlyMap<string, StoreReach> = new Map(Object.entries(STORE_TABLE));
