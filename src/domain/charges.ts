// A shipment's charge ledger, derived from what is stored: the booking's quote on the shipment row
// (forward freight, COD fee, RTO freight once an RTO has begun) and its weight discrepancy. Pure.

export type ChargeKind = 'forward_freight' | 'cod_fee' | 'rto_freight' | 'weight_adjustment';
/** charged counts in the total; pending awaits the merchant or the operator; waived was disputed and won. */
export type ChargeState = 'charged' | 'pending' | 'waived';

export interface ChargeLine {
  kind: ChargeKind;
  amountPaise: number;
  state: ChargeState;
  reason: string;
  at: Date;
}

export interface ShipmentCharges {
  isCod: boolean;
  freightPaise: number | null;
  codChargesPaise: number | null;
  rtoChargesPaise: number | null;
  assignedAt: Date | null;
  rtoInitiatedAt: Date | null;
}

export type DiscrepancyState = 'open' | 'disputed' | 'accepted' | 'won' | 'lost';
export const DISCREPANCY_STATES: readonly DiscrepancyState[] = ['open', 'disputed', 'accepted', 'won', 'lost'];

export interface DiscrepancyCharge {
  state: DiscrepancyState;
  extraPaise: number;
  declaredWeightGrams: number;
  chargedWeightGrams: number;
  openedAt: Date;
  settledAt: Date | null;
}

const STATE_OF: Record<DiscrepancyState, ChargeState> = {
  open: 'pending',
  disputed: 'pending',
  accepted: 'charged',
  lost: 'charged',
  won: 'waived',
};

/** The weight discrepancy states whose adjustment line is in `state`: a listing filters on them. */
export const discrepancyStatesFor = (state: ChargeState): DiscrepancyState[] =>
  DISCREPANCY_STATES.filter((d) => STATE_OF[d] === state);

/** The lines in the order they arose; a shipment never booked with a courier has none. */
export function chargeLines(shipment: ShipmentCharges, discrepancy: DiscrepancyCharge | null): ChargeLine[] {
  if (shipment.assignedAt === null || shipment.freightPaise === null) return [];
  const booked = shipment.assignedAt;
  const lines: ChargeLine[] = [
    {
      kind: 'forward_freight',
      amountPaise: shipment.freightPaise,
      state: 'charged',
      reason: 'Forward freight quoted at booking',
      at: booked,
    },
  ];
  if (shipment.isCod && shipment.codChargesPaise) {
    lines.push({
      kind: 'cod_fee',
      amountPaise: shipment.codChargesPaise,
      state: 'charged',
      reason: 'Cash-on-delivery fee quoted at booking',
      at: booked,
    });
  }
  if (shipment.rtoInitiatedAt !== null && shipment.rtoChargesPaise !== null) {
    lines.push({
      kind: 'rto_freight',
      amountPaise: shipment.rtoChargesPaise,
      state: 'charged',
      reason: 'Return-to-origin freight quoted at booking',
      at: shipment.rtoInitiatedAt,
    });
  }
  if (discrepancy) {
    const { declaredWeightGrams: declared, chargedWeightGrams: charged } = discrepancy;
    lines.push({
      kind: 'weight_adjustment',
      amountPaise: discrepancy.extraPaise,
      state: STATE_OF[discrepancy.state],
      reason: `Courier charged ${charged} g against ${declared} g applied (weight discrepancy ${discrepancy.state})`,
      at: discrepancy.settledAt ?? discrepancy.openedAt,
    });
  }
  return lines.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** What the merchant owes (charged lines) and what may still be added (pending lines), in paise. */
export function chargeTotals(lines: readonly ChargeLine[]): { totalPaise: number; pendingPaise: number } {
  let totalPaise = 0;
  let pendingPaise = 0;
  for (const line of lines) {
    if (line.state === 'charged') totalPaise += line.amountPaise;
    else if (line.state === 'pending') pendingPaise += line.amountPaise;
  }
  return { totalPaise, pendingPaise };
}
