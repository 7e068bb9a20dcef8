import { errorCodes } from '../../domain/errors.js';

export const CHANNEL_ERRORS = errorCodes({
  channel_not_found: ['not_found', 'No sales channel of this account has this id.'],
  channel_credentials_refused: [
    'unprocessable',
    'The store refused the credentials (a wrong token or key pair, a key without write access, a shop that is not there); `details` names each field, and nothing was saved.',
  ],
  channel_store_unreachable: [
    'upstream_failed',
    'The store could not be reached or answered nonsense while its credentials were checked; nothing was saved, try again.',
  ],
  channel_store_unknown: [
    'unprocessable',
    'store_name (or store_id) names no active store of the account: create it first (POST /client-stores).',
  ],
  channel_store_connected: [
    'conflict',
    'The store (or the shop) is already connected to a sales channel: disconnect that one first.',
  ],
  channel_warehouse_needed: [
    'invalid',
    "The account has several warehouses: warehouse_id names the one this channel's orders ship from.",
  ],
  channel_webhook_unsigned: [
    'unauthorized',
    "A sales channel's webhook without the platform's signature, or signed with another secret: nothing was changed.",
  ],
  channel_disconnected: ['gone', 'The sales channel was disconnected: it takes no more orders.'],
  channel_order_not_found: ['not_found', 'The channel has seen no store order with this id.'],
  channel_order_not_refused: ['conflict', 'Only a refused store order can be imported again; this one is not refused.'],
});

/** What a disconnected channel answers whatever is asked of it (a webhook, a sync, an import). */
export const channelDisconnected = () =>
  CHANNEL_ERRORS.channel_disconnected.error('This sales channel was disconnected: it takes no more orders');
