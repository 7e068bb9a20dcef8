import type { Clock } from '../base/clock.js';
import type { CourierService } from '../domain/rates/catalogue.js';
import {
  type BookedParcel,
  type BookingRequest,
  type Connector,
  courierRefused,
  type Instruction,
} from './connector.js';
import { callFailure } from './call-failure.js';
import { CourierCallError, type CourierHttp, createCourierHttp, isTransient } from './courier-http.js';
import {
  readEditAnswer,
  readPickupAnswer,
  readUpl,
  reattemptItem,
  TRACK_PATH,
  uplOf,
  wafThrottled,
  words,
} from './delhivery-requests.js';
import { createMpsBooking } from './delhivery-mps.js';
import { delhiveryRetries } from './delhivery-retries.js';
import { type DelhiveryScanDetail, mapShipmentScans } from './delhivery-scans.js';
import type { ParcelScans } from './carrier-event.js';
import type { HealthReport } from './connector-health.js';

export interface DelhiverySettings {
  token: string;
  baseUrl: string;
  timeoutMs: number;
  clock: Clock;
  /** Pause before the one retry of a booking or cancellation; tests shorten it. */
  retryDelayMs?: number;
  /** Told of each call's outcome (the courier connections screen). */
  health?: HealthReport;
}

const NAME = 'Delhivery';
/** Delhivery's tracking API answers up to 50 waybills a call. */
const BATCH = 50;

const rupees = (paise: number) => Math.round(paise) / 100;
const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** A refusal Delhivery states in a 4xx answer (not the credentials' 401/403): its body, to be read. */
const refusedBody = (error: unknown) =>
  error instanceof CourierCallError && error.kind === 'refused' && error.status !== 401 && error.status !== 403
    ? error.body
    : undefined;

/** What the courier's failure means for the merchant (call-failure.ts): a 4xx refusal of Delhivery's is read where it answers one. */
const unavailable = (error: unknown) => callFailure(error, { name: NAME, credentials: 'DELHIVERY_API_TOKEN' });

/**
 * Delhivery's B2C API as its documentation and public integrations show it: waybills through
 * /api/cmu/create.json (a form with format=json and data=<JSON>), tracking through
 * /api/v1/packages/json, cancellation and RTO through /api/p/edit (answered in JSON or XML),
 * reattempts through /api/p/update (queued: its UPL is confirmed at /api/cmu/get_bulk_upl),
 * pickups through /fm/request/new. `Authorization: Token <token>` on every call. A request of two
 * or more boxes is booked as one multi-piece consignment: a waybill per box from
 * /waybill/api/bulk/json/, then one create with an MPS entry per box (delhivery-mps.ts).
 */
export function createDelhiveryConnector(
  settings: DelhiverySettings,
  courierHttp: CourierHttp = defaultHttp(settings),
): Connector {
  // The circuit a throttled call opens holds every call back: while it does for that reason,
  // they are told as throttled too, so that the merchant reads why.
  let limitedUntil = 0;
  const http: CourierHttp = {
    async call(request) {
      try {
        return await courierHttp.call(request);
      } catch (error) {
        if (!(error instanceof CourierCallError)) throw error;
        const now = settings.clock.now().getTime();
        if (error.kind === 'rate_limited') limitedUntil = now + (error.retryAfterMs ?? 0);
        if (error.kind === 'circuit_open' && now < limitedUntil)
          throw new CourierCallError('rate_limited', error.message, undefined, error.retryAfterMs);
        throw error;
      }
    },
  };
  const retryDelayMs = settings.retryDelayMs ?? 1000;
  const pause = () => new Promise((resolve) => setTimeout(resolve, retryDelayMs));

  /** The waybill Delhivery already holds for our reference, if an earlier attempt reached it. */
  async function findByReference(reference: string): Promise<BookedParcel | undefined> {
    const answer = record(await http.call({ method: 'GET', path: TRACK_PATH, query: { ref_ids: reference } }));
    for (const entry of list(answer?.ShipmentData)) {
      const shipment = record(record(entry)?.Shipment);
      const awb = shipment?.AWB;
      if (
        typeof awb === 'string' &&
        awb !== '' &&
        (shipment?.ReferenceNo === undefined || shipment.ReferenceNo === reference)
      ) {
        return { awb, routingCode: null };
      }
    }
    return undefined;
  }

  /** One entry of the create call's `shipments[]`: the parcel, or (an MPS) one box of it. */
  function shipmentEntry(service: CourierService, request: BookingRequest) {
    const c = request.consignee;
    const p = request.pickup;
    return {
      name: c.name,
      add: c.address,
      pin: c.pincode,
      city: c.city,
      state: c.state,
      country: 'India',
      phone: c.phone,
      order: request.reference,
      payment_mode: request.journey === 'return' ? 'Pickup' : request.paymentMethod === 'cod' ? 'COD' : 'Prepaid',
      cod_amount: request.paymentMethod === 'cod' ? rupees(request.codPaise) : 0,
      total_amount: rupees(request.totalPaise),
      products_desc: request.productsDescription,
      quantity: request.quantity,
      weight: request.weightGrams,
      shipment_length: request.lengthCm,
      shipment_width: request.breadthCm,
      shipment_height: request.heightCm,
      shipping_mode: service.serviceLevel === 'air' ? 'Express' : 'Surface',
      order_date: request.orderDate.toISOString(),
      waybill: '',
      // Delhivery's create takes the e-way bill as `ewbn` (docs/paperwork.md, sources).
      ...(request.ewayBillNumber && { ewbn: request.ewayBillNumber }),
      ...(request.journey === 'return' && {
        return_name: p.name,
        return_add: p.address,
        return_pin: p.pincode,
        return_city: p.city,
        return_state: p.state,
        return_phone: p.phone,
      }),
    };
  }

  function bookingData(service: CourierService, request: BookingRequest) {
    return { shipments: [shipmentEntry(service, request)], pickup_location: { name: request.pickup.locationName } };
  }

  /** One create call: the waybill, or a refusal in Delhivery's words, or a CourierCallError. */
  async function create(service: CourierService, request: BookingRequest): Promise<BookedParcel | { refused: string }> {
    const answer = record(
      await http.call({
        method: 'POST',
        path: '/api/cmu/create.json',
        form: { format: 'json', data: JSON.stringify(bookingData(service, request)) },
      }),
    );
    const pkg = record(list(answer?.packages)[0]);
    if (
      answer?.success === true &&
      pkg?.status === 'Success' &&
      typeof pkg.waybill === 'string' &&
      pkg.waybill !== ''
    ) {
      return {
        awb: pkg.waybill,
        routingCode: typeof pkg.sort_code === 'string' && pkg.sort_code !== '' ? pkg.sort_code : null,
      };
    }
    const remark = words(pkg?.remarks) || words(answer?.rmk);
    if (answer && (answer.success === false || pkg?.status === 'Fail'))
      return { refused: remark || 'the booking was refused' };
    throw new CourierCallError('malformed', 'the booking answer has no waybill');
  }

  const retries = delhiveryRetries(pause, unavailable);
  const bookMps = createMpsBooking({
    http,
    retries,
    entry: shipmentEntry,
    cancel: (awb) => edit(awb, 'cancel'),
  });

  return {
    name: 'delhivery',
    pulls: true,
    batchSize: BATCH,
    // Delhivery books several boxes as one consignment (bookMps); a return's boxes are linked parcels.
    multiPiece: true,

    async book(service, request) {
      if (request.boxes && request.boxes.length >= 2 && request.journey === 'forward')
        return bookMps(service, request, request.boxes);
      return retries.book(
        () => create(service, request),
        () => findByReference(request.reference),
      );
    },

    async requestPickup(_service, pickup) {
      let answer: unknown;
      try {
        answer = await http.call({
          method: 'POST',
          path: '/fm/request/new/',
          json: {
            pickup_location: pickup.locationName,
            expected_package_count: pickup.parcels,
            pickup_date: pickup.date,
            pickup_time: '11:00:00',
          },
        });
      } catch (error) {
        // No source shows the HTTP status of a refused pickup request: its body is read either way.
        answer = refusedBody(error);
        if (answer === undefined) throw unavailable(error);
      }
      // A location takes one open request at a time; a second is answered with the first's id,
      // which is this pickup's too (its field executive collects every ready parcel).
      const outcome = readPickupAnswer(answer);
      if ('id' in outcome) return outcome.id;
      if ('auto' in outcome) return null;
      throw courierRefused(NAME, outcome.refused);
    },

    async cancel(_service, awb) {
      await edit(awb, 'cancel');
    },

    async instruct(_service, awb, instruction: Instruction) {
      if (instruction.action === 'rto') {
        // Delhivery returns a parcel to origin when it is cancelled after pickup.
        await edit(awb, 'return it to origin');
        return;
      }
      const item = reattemptItem(awb, instruction);
      if ('refused' in item) throw courierRefused(NAME, item.refused);
      let answer: unknown;
      try {
        answer = await http.call({ method: 'POST', path: '/api/p/update', json: { data: [item] } });
      } catch (error) {
        const body = refusedBody(error);
        if (body === undefined) throw unavailable(error);
        throw courierRefused(NAME, words(body) || words(record(body)?.message) || 'the reattempt was refused');
      }
      // Queued, not done: whether Delhivery applied it is asked by its UPL (confirmInstruction).
      const upl = uplOf(answer);
      if (upl) return { pending: upl };
      throw unavailable(new CourierCallError('malformed', 'the reattempt answer has no request_id'));
    },

    async confirmInstruction(_service, upl) {
      let answer: unknown;
      try {
        answer = await http.call({
          method: 'GET',
          path: `/api/cmu/get_bulk_upl/${encodeURIComponent(upl)}`,
          query: { verbose: 'true' },
        });
      } catch (error) {
        // An unknown or expired UPL is a 404 (index id 66247945527), whatever its body.
        if (error instanceof CourierCallError && error.status === 404)
          return { refused: `Delhivery does not know the request ${upl}` };
        throw unavailable(error);
      }
      const outcome = readUpl(answer);
      if (outcome === undefined)
        throw unavailable(new CourierCallError('malformed', 'the request status answer could not be read'));
      return outcome;
    },

    async changeAddress(_service, awb, lines) {
      try {
        const outcome = readEditAnswer(
          await http.call({
            method: 'POST',
            path: '/api/p/edit',
            json: { waybill: awb, add: lines },
            textAllowed: true,
          }),
        );
        if (outcome === undefined) throw new CourierCallError('malformed', 'the edit answer has no status');
        if ('refused' in outcome) throw courierRefused(NAME, `could not change the address: ${outcome.refused}`);
      } catch (error) {
        throw unavailable(error);
      }
    },

    async pull(_service, parcels) {
      const scans = new Map<string, ParcelScans>();
      const awbs = parcels.map((parcel) => parcel.awb);
      const answer = record(await http.call({ method: 'GET', path: TRACK_PATH, query: { waybill: awbs.join(',') } }));
      if (answer && !Array.isArray(answer.ShipmentData) && typeof answer.Error === 'string') return scans; // none of them known yet
      if (!answer || !Array.isArray(answer.ShipmentData))
        throw new CourierCallError('malformed', 'the tracking answer has no ShipmentData');
      const asked = new Map(parcels.map((parcel) => [parcel.awb, parcel.journey]));
      for (const entry of answer.ShipmentData) {
        const shipment = record(record(entry)?.Shipment);
        const awb = shipment?.AWB;
        const journey = typeof awb === 'string' ? asked.get(awb) : undefined;
        if (typeof awb !== 'string' || !journey) continue;
        const details = list(shipment?.Scans)
          .map((scan) => record(record(scan)?.ScanDetail))
          .filter((detail): detail is Record<string, unknown> => detail !== undefined);
        scans.set(awb, mapShipmentScans(awb, details as DelhiveryScanDetail[], journey));
      }
      return scans;
    },

    readScans: (parcel, raw) =>
      mapShipmentScans(
        parcel.awb,
        raw.map(record).filter((d) => d !== undefined) as DelhiveryScanDetail[],
        parcel.journey,
      ),
  };

  async function edit(awb: string, what: string) {
    let lastError: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        // Cancelling twice is harmless (a second cancellation answers as the first), so a time-out
        // or an unreadable answer is retried once.
        const outcome = readEditAnswer(
          await http.call({
            method: 'POST',
            path: '/api/p/edit',
            json: { waybill: awb, cancellation: 'true' },
            textAllowed: true,
          }),
        );
        if (outcome === undefined) throw new CourierCallError('malformed', 'the cancellation answer has no status');
        if ('done' in outcome) return;
        throw courierRefused(NAME, `could not ${what}: ${outcome.refused}`);
      } catch (error) {
        if (!isTransient(error)) throw unavailable(error);
        lastError = error;
        if (attempt === 0) await pause();
      }
    }
    throw unavailable(lastError);
  }
}

function defaultHttp(settings: DelhiverySettings): CourierHttp {
  return createCourierHttp({
    baseUrl: settings.baseUrl,
    headers: { authorization: `Token ${settings.token}` },
    timeoutMs: settings.timeoutMs,
    clock: settings.clock,
    throttledBy: wafThrottled,
    ...(settings.health && { health: settings.health }),
  });
}
