import type { Executor } from '../../base/db/client.js';
import type { Allocation, OrderFacts, RuleOutcome } from '../../domain/allocation/allocation.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { cannotCarry, namedService, noCourierServes } from '../../domain/rates/courier-choice.js';
import type { CourierQuote, RateQuote } from '../../domain/rates/engine.js';
import type { CourierAllocator } from '../contracts.js';
import type { PreparedOrder } from './order-rows.js';

// Which courier service carries a priced order: the one it names, or the account's allocation
// rules' choice. The booking, the assignment, the check and the preview all choose here, alike.

/** A priced order with its store's name, as the allocation rules match on it. */
export type PricedOrder = Pick<PreparedOrder, 'input' | 'warehouse' | 'quote'> & { storeName: string | null };

export interface CourierChoice {
  courier: CourierQuote;
  allocation: Allocation | null;
  outcomes: RuleOutcome<CourierQuote>[];
}

export const withStore = (prepared: PreparedOrder) => ({ ...prepared, storeName: prepared.store?.storeName ?? null });

export function requireServiceable(quote: RateQuote): void {
  if (quote.couriers.length === 0) throw noCourierServes('shipment');
}

interface Deps {
  rates: RatesContext;
  /** The account's allocation rules: which courier books an order sent without carrier_id. */
  allocator: CourierAllocator;
}

export function createCourierChoice({ rates, allocator }: Deps) {
  /** What allocation rules match on, of a priced order. */
  function factsOf(prepared: Pick<PricedOrder, 'input' | 'quote' | 'storeName'>): OrderFacts {
    const destination = rates.directory.lookup(prepared.input.shipping.pincode)!;
    return {
      zone: prepared.quote.zone,
      paymentMethod: prepared.input.paymentMethod,
      weightGrams: prepared.quote.applicableWeight,
      orderValuePaise: prepared.input.subTotalPaise,
      pincode: destination.pincode,
      state: destination.state,
      storeName: prepared.storeName,
    };
  }

  /** The named service when it can carry the shipment; else a 422 saying why not. */
  function namedCourier(prepared: Pick<PreparedOrder, 'input' | 'warehouse' | 'quote'>, carrierId: string) {
    const { quote } = prepared;
    const service = namedService(rates.catalogue, carrierId);
    const offered = quote.couriers.find((c) => c.service.id === carrierId);
    if (offered) return offered;
    throw cannotCarry(
      service,
      {
        origin: rates.directory.lookup(prepared.warehouse.pincode)!,
        destination: rates.directory.lookup(prepared.input.shipping.pincode)!,
        applicableWeightGrams: quote.applicableWeight,
        cod: prepared.input.paymentMethod === 'cod',
      },
      rates.catalogue,
      'shipment',
    );
  }

  /**
   * The named service (allocation null), or, without one, the account's allocation rules' choice
   * among the serviceable services. `explain` (the preview): also what each rule made of the order,
   * which asks the rules even when a service is named; a booking that names one asks nothing.
   */
  return async function allocateCourier(
    ex: Executor,
    accountId: string,
    prepared: PricedOrder,
    carrierId: string | undefined,
    explain = false,
  ): Promise<CourierChoice> {
    if (carrierId !== undefined) {
      const courier = namedCourier(prepared, carrierId);
      const outcomes = explain
        ? (await allocator.choose(ex, accountId, factsOf(prepared), prepared.quote.couriers)).outcomes
        : [];
      return { courier, allocation: null, outcomes };
    }
    requireServiceable(prepared.quote);
    const choice = await allocator.choose(ex, accountId, factsOf(prepared), prepared.quote.couriers);
    return { ...choice.chosen!, outcomes: choice.outcomes };
  };
}

export type AllocateCourier = ReturnType<typeof createCourierChoice>;
