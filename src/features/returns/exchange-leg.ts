import type { Executor, Tx } from '../../base/db/client.js';
import type { Actor } from '../../domain/access/permissions.js';
import { decimalTextToPaise } from '../../domain/money.js';
import { requireSchema } from '../../domain/schema-problems.js';
import type { ExchangeLegBooking, ReturnLeg } from '../contracts.js';
import { RETURN_ERRORS } from './returns.errors.js';
import * as repo from './returns.repository.js';
import { type CreateReturnInput, CreateReturnBody, type ReturnPayloadView } from './returns.schemas.js';
import type { ReturnsService } from './returns.service.js';

// An exchange's pickup of the old item (features/exchanges): a return booked by
// reverse-order-orchestration's own path, in the exchange's transaction, and shown as its answer
// shows it.

function legOf(view: ReturnPayloadView): ReturnLeg {
  return {
    returnId: view.return_id,
    merchantOrderId: view.order_id,
    shipmentId: view.shipment_id,
    awb: view.awb_code,
    carrierId: view.courier_company_id,
    courierName: view.courier_name,
    appliedWeightKg: view.applied_weight,
    status: view.status,
    labelUrl: view.label_url,
    trackUrl: view.track_url,
    testMode: view.test_mode,
    warnings: [],
    freightPaise: decimalTextToPaise(view.charges?.reverse_charges ?? '0') ?? 0,
    qcPaise: decimalTextToPaise(view.charges?.qc ?? '0') ?? 0,
    qcApplied: view.qc_enabled === 1,
    qcNote: view.qc_message,
  };
}

export function createReturnLeg(returns: Pick<ReturnsService, 'orchestrate' | 'view'>): ExchangeLegBooking<ReturnLeg> {
  return {
    async book(actor: Actor, body: object, tx: Tx) {
      requireSchema(CreateReturnBody, body);
      return legOf(await returns.orchestrate(actor, body as CreateReturnInput, tx));
    },

    async read(ex: Executor, accountId: string, returnId: string) {
      const row = await repo.findReturn(ex, accountId, returnId);
      if (!row) throw RETURN_ERRORS.return_not_found.error(`Return ${returnId} not found`, 'return_id');
      return legOf(await returns.view(ex, accountId, row));
    },
  };
}
