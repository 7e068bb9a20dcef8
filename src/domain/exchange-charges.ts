import { rupeesText } from './money.js';

// What an exchange costs, from what each leg's booking stored (decision 149). Pure.

export interface ExchangeChargeParts {
  forwardFreightPaise: number;
  forwardCodPaise: number;
  /** Charged only if the replacement comes back; shown, not counted in the total. */
  forwardRtoPaise: number;
  returnPickupPaise: number;
  /** The account's QC charge when it set one, else the QC-capable courier's; 0 without QC. */
  qcPaise: number;
  exchangePaise: number;
}

/**
 * The QC charge an exchange counts: none when its pickup is booked without QC; else the account's
 * QC charge when it set one, over the QC-capable courier's.
 */
export function exchangeQcPaise(pickup: { qcApplied: boolean; courierQcPaise: number }, accountQcPaise: number | null) {
  return pickup.qcApplied ? (accountQcPaise ?? pickup.courierQcPaise) : 0;
}

/** Velocity's `charges` of an exchange: rupees as two-decimal strings. */
export function exchangeCharges(parts: ExchangeChargeParts) {
  return {
    total: rupeesText(exchangeTotalPaise(parts)),
    forward: {
      forward_charges: rupeesText(parts.forwardFreightPaise),
      forward_cod_charges: rupeesText(parts.forwardCodPaise),
      forward_rto_charges: rupeesText(parts.forwardRtoPaise),
    },
    reverse: {
      return_pickup_charges: rupeesText(parts.returnPickupPaise),
      qc_charges: rupeesText(parts.qcPaise),
      exchange_charges: rupeesText(parts.exchangePaise),
    },
  };
}

export function exchangeTotalPaise(parts: ExchangeChargeParts): number {
  return (
    parts.forwardFreightPaise + parts.forwardCodPaise + parts.returnPickupPaise + parts.qcPaise + parts.exchangePaise
  );
}
