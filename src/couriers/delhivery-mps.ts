import type { CourierService } from '../domain/rates/catalogue.js';
import { record } from './courier-answers.js';
import { type BookedParcel, type BookingRequest, courierRefused, type ParcelBox } from './connector.js';
import { CourierCallError, type CourierHttp } from './courier-http.js';
import { cancelledShipment, readWaybills, TRACK_PATH, WAYBILL_PATH, words } from './delhivery-requests.js';
import type { DelhiveryRetries } from './delhivery-retries.js';

// Delhivery's multi-piece shipments (MPS): a waybill per box from its bulk waybill call, then one
// create call with an entry per box (docs/paperwork.md, "Multi-piece shipments", with sources).

const NAME = 'Delhivery';
const rupees = (paise: number) => Math.round(paise) / 100;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export interface MpsDeps {
  http: CourierHttp;
  /** Two tries at most of each call (delhivery-retries.ts). */
  retries: DelhiveryRetries;
  /** The parcel's entry of the create call's `shipments[]`, as for one parcel. */
  entry: (service: CourierService, request: BookingRequest) => Record<string, unknown>;
  /** Cancels one waybill; throws when Delhivery refuses or cannot be reached. */
  cancel: (awb: string) => Promise<void>;
}

/** The connector's booking of a request with two or more boxes (bookMps below). */
export function createMpsBooking({ http, retries, entry, cancel }: MpsDeps) {
  const { twice } = retries;
  /**
   * A multi-piece shipment's create data (docs/paperwork.md, "Multi-piece shipments", with its
   * sources): one entry per box, box 1 first, each `shipment_type` "MPS" with its own waybill (from
   * the bulk call), weight and sizes, all under our reference as `order`, `master_id` box 1's
   * waybill, `mps_children` the number of boxes and `mps_amount` the cash to collect for the whole
   * consignment (0 when prepaid); the rest (consignee, payment, value) as for one parcel.
   */
  function mpsData(service: CourierService, request: BookingRequest, boxes: readonly ParcelBox[], waybills: string[]) {
    const base = entry(service, request);
    const master = waybills[0]!;
    return {
      shipments: boxes.map((box, i) => ({
        ...base,
        weight: box.weightGrams,
        shipment_length: box.lengthCm,
        shipment_width: box.breadthCm,
        shipment_height: box.heightCm,
        waybill: waybills[i]!,
        shipment_type: 'MPS',
        master_id: master,
        mps_children: boxes.length,
        mps_amount: request.paymentMethod === 'cod' ? rupees(request.codPaise) : 0,
      })),
      pickup_location: { name: request.pickup.locationName },
    };
  }

  /** `count` fresh waybills from the bulk waybill call; ones a failed booking leaves unused cost nothing. */
  async function fetchWaybills(count: number): Promise<string[]> {
    const answer = await http.call({
      method: 'GET',
      path: WAYBILL_PATH,
      query: { count: String(count) },
      textAllowed: true,
    });
    const waybills = readWaybills(answer);
    if (waybills.length !== count || new Set(waybills).size !== count)
      throw new CourierCallError('malformed', `the waybill answer holds ${waybills.length} waybills, not ${count}`);
    return waybills;
  }

  /** The packages Delhivery holds under our reference, and whether each was cancelled. */
  async function packagesUnder(reference: string): Promise<{ awb: string; cancelled: boolean }[]> {
    const answer = record(await http.call({ method: 'GET', path: TRACK_PATH, query: { ref_ids: reference } }));
    const found: { awb: string; cancelled: boolean }[] = [];
    for (const entry of list(answer?.ShipmentData)) {
      const shipment = record(record(entry)?.Shipment);
      const awb = shipment?.AWB;
      if (
        typeof awb === 'string' &&
        awb !== '' &&
        (shipment!.ReferenceNo === undefined || shipment!.ReferenceNo === reference)
      )
        found.push({ awb, cancelled: cancelledShipment(shipment!) });
    }
    return found;
  }

  /** Calls off boxes Delhivery took of a consignment that is not booked whole; a refusal is left in the words given. */
  async function cancelBoxes(awbs: readonly string[]): Promise<string> {
    const kept: string[] = [];
    for (const awb of awbs) {
      try {
        await cancel(awb);
      } catch {
        kept.push(awb);
      }
    }
    return kept.length === 0
      ? `the boxes it had taken (${awbs.join(', ')}) were cancelled`
      : `it still holds ${kept.join(', ')}, which could not be cancelled`;
  }

  type MpsOutcome = { booked: true; routingCode: string | null } | { refused: string; taken: string[] };

  /** One MPS create call: booked whole, or refused (with the boxes it took nonetheless), or a CourierCallError. */
  async function createMps(
    service: CourierService,
    request: BookingRequest,
    boxes: readonly ParcelBox[],
    waybills: string[],
  ): Promise<MpsOutcome> {
    const answer = record(
      await http.call({
        method: 'POST',
        path: '/api/cmu/create.json',
        form: { format: 'json', data: JSON.stringify(mpsData(service, request, boxes, waybills)) },
      }),
    );
    const packages = list(answer?.packages).map(record);
    const succeeded = (pkg: Record<string, unknown> | undefined) =>
      pkg?.status === 'Success' && typeof pkg.waybill === 'string' && waybills.includes(pkg.waybill);
    const taken = packages.filter(succeeded).map((pkg) => pkg!.waybill as string);
    if (answer?.success === true && new Set(taken).size === waybills.length) {
      const master = packages.find((pkg) => pkg?.waybill === waybills[0]);
      const sortCode = master?.sort_code;
      return { booked: true, routingCode: typeof sortCode === 'string' && sortCode !== '' ? sortCode : null };
    }
    const remarks = [...new Set(packages.map((pkg) => words(pkg?.remarks)).filter(Boolean))].join('; ');
    if (answer && (answer.success === false || packages.some((pkg) => pkg?.status === 'Fail')))
      return { refused: remarks || words(answer.rmk) || 'the booking was refused', taken };
    throw new CourierCallError('malformed', 'the booking answer does not account for every box');
  }

  /**
   * A multi-piece shipment booked natively: a waybill per box from the bulk call, then one create
   * call with an entry per box (mpsData). All or nothing: boxes Delhivery took of a consignment it
   * did not take whole are cancelled. Never booked twice:
   * - before anything, Delhivery is asked what it holds under our reference: with waybills passed
   *   explicitly its create may take an order id again (its order creation API's notes), so a
   *   second booking of one shipment would not be refused as a duplicate. Boxes it holds and that
   *   are not cancelled are an earlier booking Dakiya did not record (a crash, or a race with
   *   another request for this shipment): refused, naming them, rather than booked again;
   * - after a time-out, or when Delhivery calls the order a duplicate, our waybills are looked for
   *   under our reference before the create is sent again, with the same waybills.
   */
  async function bookMps(service: CourierService, request: BookingRequest, boxes: readonly ParcelBox[]) {
    const { reference } = request;
    const held = (await twice(() => packagesUnder(reference))).filter((pkg) => !pkg.cancelled);
    if (held.length > 0)
      throw courierRefused(
        NAME,
        `it already holds ${held.map((pkg) => pkg.awb).join(', ')} under this shipment's reference ${reference}, ` +
          'from an earlier booking Dakiya has no record of; cancel them at Delhivery before booking the shipment again',
      );
    const waybills = await twice(() => fetchWaybills(boxes.length));
    const parcel = (routingCode: string | null): BookedParcel => ({
      awb: waybills[0]!,
      routingCode,
      boxes: waybills.map((awb) => ({ awb, reference })),
    });
    /** Whether an earlier attempt got the boxes through: all of them (booked), some (called off), none. */
    const gotThrough = async (): Promise<BookedParcel | undefined> => {
      const mine = new Set(waybills);
      const found = (await packagesUnder(reference)).filter((pkg) => mine.has(pkg.awb) && !pkg.cancelled);
      if (found.length === waybills.length) return parcel(null);
      if (found.length > 0)
        throw courierRefused(
          NAME,
          `it took only some boxes of the consignment; ${await cancelBoxes(found.map((pkg) => pkg.awb))}`,
        );
      return undefined;
    };
    return retries.book(async () => {
      const outcome = await createMps(service, request, boxes, waybills);
      if ('booked' in outcome) return parcel(outcome.routingCode);
      if (outcome.taken.length > 0)
        throw courierRefused(NAME, `${outcome.refused}; ${await cancelBoxes(outcome.taken)}`);
      return { refused: outcome.refused };
    }, gotThrough);
  }

  return bookMps;
}
