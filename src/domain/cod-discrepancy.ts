import { paiseToRupees } from './money.js';

// One shape for a COD discrepancy, read by the ledger (features/cod-ledger: its import answer and
// events) and by the listings (readers/cod-reports), which may not import each other.

export type CodDiscrepancyKind = 'short_paid' | 'over_paid' | 'paid_not_delivered' | 'missing_from_remittance';

export interface CodDiscrepancyRow {
  id: string;
  kind: CodDiscrepancyKind;
  awb: string;
  carrierId: string;
  shipmentId: string;
  receivableId: string | null;
  remittanceId: string | null;
  expectedPaise: number;
  receivedPaise: number;
  expectedDate: string | null;
  detectedAt: Date;
}

/** A discrepancy as the API, its CSV and its event show it: amounts in rupees. */
export function codDiscrepancyView(row: CodDiscrepancyRow) {
  return {
    id: row.id,
    kind: row.kind,
    awb: row.awb,
    carrier_id: row.carrierId,
    shipment_id: row.shipmentId,
    receivable_id: row.receivableId,
    remittance_id: row.remittanceId,
    expected_amount: paiseToRupees(row.expectedPaise),
    received_amount: paiseToRupees(row.receivedPaise),
    difference: paiseToRupees(row.receivedPaise - row.expectedPaise),
    expected_date: row.expectedDate,
    detected_at: new Date(row.detectedAt).toISOString(),
  };
}
