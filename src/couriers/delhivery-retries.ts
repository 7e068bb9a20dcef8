import { type BookedParcel, courierRefused } from './connector.js';
import { isTransient } from './courier-http.js';

// Delhivery's calls are tried twice at most, a pause between: a time-out or a 5xx often passes, and
// a booking's second try first asks whether the first got through, so nothing is booked twice.

const NAME = 'Delhivery';

export type DelhiveryRetries = ReturnType<typeof delhiveryRetries>;

/**
 * `pause` waits before the second try; `unavailable` says what a failure that stays means for the
 * merchant (the connector's callFailure), and is what both throw.
 */
export function delhiveryRetries(pause: () => Promise<unknown>, unavailable: (error: unknown) => unknown) {
  /** A call whose failure changes nothing at Delhivery (a look-up, fresh waybills). */
  async function twice<T>(call: () => Promise<T>): Promise<T> {
    let lastError: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (!isTransient(error)) throw unavailable(error);
        lastError = error;
        if (attempt === 0) await pause();
      }
    }
    throw unavailable(lastError);
  }

  /**
   * A booking's create. Before the second try, and when Delhivery calls the order a duplicate,
   * `earlier` says whether an earlier attempt got through (our shipment id is the order reference):
   * its parcel is the booking's. A refusal is the courier's, in its words.
   */
  function book(
    create: () => Promise<BookedParcel | { refused: string }>,
    earlier: () => Promise<BookedParcel | undefined>,
  ): Promise<BookedParcel> {
    let tried = false;
    return twice(async () => {
      if (tried) {
        const found = await earlier();
        if (found) return found;
      }
      tried = true;
      const result = await create();
      if (!('refused' in result)) return result;
      if (/duplicate/i.test(result.refused)) {
        const found = await earlier();
        if (found) return found;
      }
      throw courierRefused(NAME, result.refused);
    });
  }

  return { twice, book };
}
