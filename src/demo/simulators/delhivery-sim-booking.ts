import {
  bookedPackage,
  createAnswer,
  entryRefusal,
  MAX_BULK_WAYBILLS,
  mpsRefusal,
  waybillsAnswer,
} from './delhivery-sim-answers.js';

// The Delhivery simulator's booking desk: the create call (one parcel per entry, or a multi-piece
// consignment under waybills issued in advance) and the bulk waybill call that issues them. What it
// books is what the tracking, edit and NDR answers of delhivery-simulator.ts read.

export interface SimScan {
  ScanDateTime: string;
  ScanType: string;
  Scan: string;
  StatusCode: string;
  ScannedLocation?: string;
  Instructions?: string;
}

export interface SimPackage {
  waybill: string;
  order: string;
  shipment: Record<string, unknown>;
  pickupLocation: string;
  scans: SimScan[];
  cancelled: boolean;
  pickedUp: boolean;
}

/** Books packages into `packages`, the map the rest of the simulator reads. */
export function createSimBookingDesk(packages: Map<string, SimPackage>) {
  let nextWaybill = 1_490_000_000_001;
  /** Waybills the bulk waybill call handed out and no package uses yet. */
  const issued = new Set<string>();

  /** Keeps a package booked under `waybill`; its entry of the create call's answer. */
  function keep(waybill: string, shipment: Record<string, unknown>, pickupLocation: string) {
    packages.set(waybill, {
      waybill,
      order: String(shipment.order),
      shipment,
      pickupLocation,
      scans: [],
      cancelled: false,
      pickedUp: false,
    });
    return bookedPackage(waybill, shipment);
  }

  /**
   * A multi-piece create (delhivery-sim-answers.ts `mpsRefusal` says what is checked, with its
   * sources): refused whole, every package Fail with the reason, or a package booked per box under
   * the waybills the bulk call issued.
   */
  function createMps(shipments: Record<string, unknown>[], pickupLocation: string) {
    const refusal =
      shipments.map(entryRefusal).find((why) => why !== undefined) ??
      mpsRefusal(
        shipments,
        (waybill) => issued.has(waybill),
        (waybill) => packages.has(waybill),
      );
    if (refusal !== null)
      return createAnswer(
        shipments.map((s) => ({
          status: 'Fail',
          remarks: [refusal],
          waybill: String(s.waybill ?? ''),
          refnum: s.order,
        })),
      );
    return createAnswer(
      shipments.map((shipment) => {
        issued.delete(String(shipment.waybill));
        return keep(String(shipment.waybill), shipment, pickupLocation);
      }),
    );
  }

  function create(form: URLSearchParams): { status: number; body: unknown } {
    if (form.get('format') !== 'json') return { status: 400, body: { error: 'format=json is required' } };
    let data: { shipments?: Record<string, unknown>[]; pickup_location?: { name?: string } };
    try {
      data = JSON.parse(form.get('data') ?? '');
    } catch {
      return { status: 400, body: { error: 'data must be JSON' } };
    }
    if (!Array.isArray(data.shipments) || typeof data.pickup_location?.name !== 'string') {
      return { status: 400, body: { error: 'data needs shipments[] and pickup_location.name' } };
    }
    const pickupLocation = data.pickup_location.name;
    if (data.shipments.some((shipment) => String(shipment.shipment_type ?? '').toUpperCase() === 'MPS'))
      return createMps(data.shipments, pickupLocation);
    const answered = data.shipments.map((shipment) => {
      const refused = entryRefusal(shipment);
      if (refused) return { status: 'Fail', remarks: [refused], waybill: '', refnum: shipment.order };
      if ([...packages.values()].some((p) => p.order === shipment.order)) {
        return {
          status: 'Fail',
          remarks: [`Duplicate order id ${String(shipment.order)}`],
          waybill: '',
          refnum: shipment.order,
        };
      }
      return keep(String(nextWaybill++), shipment, pickupLocation);
    });
    return createAnswer(answered);
  }

  /** The bulk waybill call (delhivery-sim-answers.ts `waybillsAnswer`): `count` fresh waybills. */
  function issueWaybills(count: number): { status: number; body: unknown } {
    if (!Number.isInteger(count) || count < 1 || count > MAX_BULK_WAYBILLS)
      return { status: 400, body: { error: `count must be a whole number from 1 to ${MAX_BULK_WAYBILLS}` } };
    const waybills = Array.from({ length: count }, () => String(nextWaybill++));
    for (const waybill of waybills) issued.add(waybill);
    return { status: 200, body: waybillsAnswer(waybills) };
  }

  return { create, issueWaybills, unusedWaybills: () => [...issued] };
}
