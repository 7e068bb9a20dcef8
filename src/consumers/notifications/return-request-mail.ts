import { firstNameOf } from '../../domain/buyer-copy/page-text.js';
import type { ReturnMoment } from '../../domain/shipment/notify-events.js';
import { type Brand, type MailContent, mailOf } from './notification-mail.js';

/** What an e-mail reads of the return request its event carried (GET /return-requests/{id}). */
export interface MailReturnRequest {
  items: { name: string; quantity: number }[];
  resolution: string;
  exchange_for: string | null;
  pickup_address: { name: string };
  decision_note: string | null;
}

const FOLLOW = 'Follow your request';

/**
 * The buyer's e-mail about their return request: kept, approved (a courier will collect), or
 * declined with the store's words; the button opens the request on the tracking page.
 */
export function composeReturnMail(
  moment: ReturnMoment,
  request: MailReturnRequest,
  shipment: { order: string; trackUrl: string },
  brand: Brand,
): MailContent {
  const items = request.items.map((item) => `${item.name} × ${item.quantity}`).join(', ');
  const wants =
    request.resolution === 'exchange'
      ? `an exchange${request.exchange_for ? ` for ${request.exchange_for}` : ''}`
      : 'your money back';
  const { order } = shipment;
  const copy: Record<ReturnMoment, { subject: string; headline: string; lines: string[] }> = {
    return_requested: {
      subject: `We received your return request for ${brand.name} order ${order}`,
      headline: 'Your return request is with the store',
      lines: [
        `You asked to send back ${items}, for ${wants}.`,
        'The store will look at it and tell you what it decides.',
      ],
    },
    return_approved: {
      subject: `Your return for ${brand.name} order ${order} is approved`,
      headline: 'Your return is approved',
      lines: [
        `The store approved the return of ${items}, for ${wants}.`,
        'A courier will come to collect the items from your pickup address: keep them packed, with their tags.',
      ],
    },
    return_rejected: {
      subject: `Your return request for ${brand.name} order ${order} was declined`,
      headline: 'Your return request was declined',
      lines: [
        `The store declined the return of ${items}.`,
        ...(request.decision_note ? [`The store says: ${request.decision_note}`] : []),
      ],
    },
  };
  return mailOf(
    {
      ...copy[moment],
      firstName: firstNameOf(request.pickup_address.name),
      order,
      button: FOLLOW,
      url: shipment.trackUrl,
    },
    brand,
  );
}
