import type { Executor } from '../../base/db/client.js';
import { formatDay, type IndiaDay, parseDay } from '../../domain/calendar.js';
import type { FieldError } from '../../domain/errors.js';
import { greatCircleKm } from '../../domain/geo/distance.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import { formatRupees } from '../../domain/money.js';
import type { EwayBillRules } from '../../domain/paperwork/eway-bill-data.js';
import { type EwayBillNeed, ewayBillNeed, lastValidDay, validityDays } from '../../domain/paperwork/eway-bill.js';
import type { WarehouseRow } from '../../tenancy/warehouses/warehouses.service.js';
import type { OrderInput } from './order-input.js';
import { ORDER_ERRORS } from './orders.errors.js';

// Rule 138 at booking (docs/paperwork.md): an order whose value needs an e-way bill is booked only
// with its number (or, as the account chooses, with a warning), and a bill that would expire before
// the courier's promised delivery is reported.

/** What a booking does with an order that needs a bill and has none (the paperwork settings'). */
export type EwayBillCheckOf = (ex: Executor, accountId: string) => Promise<'refuse' | 'warn'>;

interface Deps {
  rules: EwayBillRules;
  directory: PincodeDirectory;
  checkOf: EwayBillCheckOf;
}

const rupees = (paise: number) => formatRupees(paise / 100);

function needOf(input: OrderInput, warehouse: WarehouseRow, { rules, directory }: Deps): EwayBillNeed {
  return ewayBillNeed(
    {
      // The order's value as declared to the courier and printed on the label: sub_total, which
      // Velocity's integrations send net of the order's discount or not; the larger reading asks sooner.
      valuePaise: input.subTotalPaise,
      lines: input.items.map((item) => ({
        hsn: item.hsn,
        valuePaise: item.units * Math.max(0, item.sellingPricePaise - item.discountPaise),
      })),
      fromState: directory.lookup(warehouse.pincode)?.state ?? '',
      toState: directory.lookup(input.shipping.pincode)?.state ?? '',
    },
    rules,
  );
}

function whyNeeded(need: EwayBillNeed): string {
  const exempt = need.exemptPaise > 0 ? ` (after ${rupees(need.exemptPaise)} of exempt goods)` : '';
  return (
    `this order's value of ${rupees(need.valuePaise)}${exempt} exceeds ${rupees(need.limitPaise)}, ` +
    `${need.limitSetBy}: the consignment needs an e-way bill before it moves; send its 12-digit number as ewaybill_no`
  );
}

export type EwayBillCheck = ReturnType<typeof createEwayBillCheck>;

export function createEwayBillCheck(deps: Deps) {
  return {
    /**
     * At booking, before the courier is asked: refuses an order that needs a bill and has none (422
     * eway_bill_required) unless the account warns instead; and warns of a bill whose validity over
     * the distance ends before `deliveryDay`. Returns the warnings.
     */
    async atBooking(
      ex: Executor,
      accountId: string,
      input: OrderInput,
      warehouse: WarehouseRow,
      deliveryDay: IndiaDay,
    ): Promise<FieldError[]> {
      if (input.ewayBill !== null) return expiryWarnings(input, warehouse, deliveryDay, deps);
      const need = needOf(input, warehouse, deps);
      if (!need.needed) return [];
      const message = whyNeeded(need);
      if ((await deps.checkOf(ex, accountId)) === 'refuse')
        throw ORDER_ERRORS.eway_bill_required.error(`ewaybill_no is required: ${message}`, 'ewaybill_no');
      return [{ field: 'ewaybill_no', message: `booked without an e-way bill, though ${message}` }];
    },

    /** For an order stored without a courier: the refusal its booking will meet, said now. */
    beforeBooking(input: OrderInput, warehouse: WarehouseRow): FieldError[] {
      if (input.ewayBill !== null) return [];
      const need = needOf(input, warehouse, deps);
      return need.needed ? [{ field: 'ewaybill_no', message: `needed before booking: ${whyNeeded(need)}` }] : [];
    },
  };
}

function expiryWarnings(input: OrderInput, warehouse: WarehouseRow, deliveryDay: IndiaDay, deps: Deps): FieldError[] {
  const generated = input.ewayBill?.date;
  const from = deps.directory.lookup(warehouse.pincode);
  const to = deps.directory.lookup(input.shipping.pincode);
  const km = from && to ? greatCircleKm(from, to) : undefined;
  if (!generated || km === undefined) return [];
  const lastDay = lastValidDay(parseDay(generated), km);
  if (deliveryDay <= lastDay) return [];
  return [
    {
      field: 'ewaybill_date',
      message:
        `the e-way bill of ${generated} is valid for ${validityDays(km)} day(s) over about ${Math.round(km)} km ` +
        `(rule 138(10)), to the end of ${formatDay(lastDay)}, and the courier expects to deliver on ${formatDay(deliveryDay)}: ` +
        'extend it before it lapses',
    },
  ];
}
