/**
 * The Delhivery simulator's answers where Delhivery's own shapes are not plain JSON, or follow
 * rules of its own; each cites where it was seen (sources as docs/couriers.md numbers them).
 */

/**
 * Past its rate Delhivery's tracking answers "403 Forbidden" from an AWS WAF, for at least 30 s
 * (Delhivery_API_2.md, "TRACK SHIPMENT API", dhirajgiri3/Shipcrowd docs/Resources/API/Courier/
 * Delhivery/B2C). No source shows the body; this is the HTML page an AWS load balancer answers
 * for a request its WAF blocks.
 */
export const WAF_FORBIDDEN =
  '<html>\r\n<head><title>403 Forbidden</title></head>\r\n<body>\r\n<center><h1>403 Forbidden</h1></center>\r\n</body>\r\n</html>\r\n';

/**
 * POST /api/p/edit answers XML to a client that does not ask for JSON: motoxplus's captures 5 and
 * 7 (`<?xml version="1.0" encoding="utf-8"?>` then `<root><status>True</status><waybill>…
 * </waybill><order_id>…</order_id><remark>Shipment has been cancelled.</remark></root>`,
 * manishgiri31/motoxplus delhivery-reference.md), and two clients that parse it so (index ids
 * 56686219271, 39784141562). A client sending `accept: application/json` reads JSON `status`
 * (the production aggregator, index id 53245290456), so JSON is answered to one that asks.
 */
export function editAnswer(fields: Record<string, string | boolean>, xml: boolean) {
  if (!xml) return { contentType: 'application/json', body: JSON.stringify(fields) };
  const tags = Object.entries(fields)
    .map(([key, value]) => {
      const shown = typeof value === 'boolean' ? (value ? 'True' : 'False') : value;
      return `<${key}>${shown.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</${key}>`;
    })
    .join('');
  return {
    contentType: 'application/xml; charset=utf-8',
    body: `<?xml version="1.0" encoding="utf-8"?>\n<root>${tags}</root>`,
  };
}

/**
 * The NSL codes after which Delhivery takes each NDR action: RE-ATTEMPT (Delhivery_API_2.md, "NDR
 * API"; the UPL answer's "Package in incorrect status" otherwise) and DEFER_DLV (Delhivery's API
 * reference, delhivery-express-api-doc.readme.io "asynchronous NDR package action API").
 */
export const NDR_ACTION_CODES: Readonly<Record<string, readonly string[]>> = {
  'RE-ATTEMPT': ['EOD-74', 'EOD-15', 'EOD-104', 'EOD-43', 'EOD-86', 'EOD-11', 'EOD-69', 'EOD-6'],
  DEFER_DLV: ['EOD-74', 'EOD-15', 'EOD-11', 'EOD-3', 'EOD-16', 'EOD-6', 'ST-108'],
};

export interface NdrItem {
  waybill?: unknown;
  act?: unknown;
  action_data?: { deferred_date?: unknown };
}

/**
 * What Delhivery makes of one NDR item once it runs the queued request: null when applied, else
 * its words. `lastScan` is the package's latest scan and `attempts` its failed deliveries.
 */
export function ndrOutcome(
  item: NdrItem,
  lastScan: { ScanType: string; Scan: string; StatusCode: string } | undefined,
  attempts: number,
): string | null {
  const codes = typeof item.act === 'string' ? NDR_ACTION_CODES[item.act] : undefined;
  if (!codes) return 'Action is not valid';
  if (item.act === 'DEFER_DLV' && !/^\d{4}-\d{2}-\d{2}$/.test(String(item.action_data?.deferred_date ?? '')))
    return 'Invalid deferred_date';
  const pending = lastScan?.ScanType === 'UD' && lastScan.Scan === 'Pending';
  if (!pending || !codes.includes(lastScan.StatusCode)) return 'Package in incorrect status';
  if (item.act === 'RE-ATTEMPT' && attempts > 2) return 'Shipment has reached max attempt count';
  return null;
}

/** A UPL's answer at GET /api/cmu/get_bulk_upl/{UPL}?verbose=true (index id 66247945527). */
export function uplAnswer(requestId: string, results: { waybill: string; act: string; failure: string | null }[]) {
  const failed = results.filter((r) => r.failure !== null);
  const succeeded = results.filter((r) => r.failure === null);
  return {
    status: failed.length === 0 ? 'Success' : 'Failure',
    remark: succeeded.length === 0 ? 'Zero waybills affected' : `${succeeded.length} waybills affected`,
    failed_wbns: failed.map((r) => ({ action: r.act, waybill: r.waybill, message: r.failure })),
    success_wbns: succeeded.map((r) => ({ waybill: r.waybill, action: r.act })),
    request_id: requestId,
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A second pickup request for a location whose first is still open, as a client's test of it
 * records Delhivery's answer (index id 67326558670): the open request's id, `pr_exist`, error 669.
 */
export function pickupExists(pickupId: number, date: string) {
  const [, month, day] = date.split('-');
  const message = `A Pickup Request ${pickupId} for this Pickup Location Already Exist for ${day} ${MONTHS[Number(month) - 1]} in slot 14:00 - 18:00`;
  return {
    data: { message },
    pr_exist: true,
    pickup_id: pickupId,
    error: { code: 669, message },
    success: false,
    status: true,
  };
}

/**
 * An account on auto pickup: the words of Delhivery_API_2.md ("Pickup Request Creation API", Common
 * Remarks); no source shows the answer around them, so they come as the other pickup errors do.
 */
export const AUTO_PICKUP = {
  error: 'Client is on auto pickup and please raise a ticket to firstmile_servicing@delhivery.com',
  success: false,
};

/**
 * The most waybills one bulk waybill call hands out: 10,000 (clients refuse more before calling,
 * index ids 54673145443 and 60233606242; an integration's notes: "up to 10,000 waybills per
 * request", index id 9413771614).
 */
export const MAX_BULK_WAYBILLS = 10_000;

/**
 * GET /waybill/api/bulk/json/?count=N answers a bare JSON string, the waybills separated by
 * commas ("verified against production", index id 63406905940; a Java client removes the quotes
 * and splits on commas, index id 12211899403).
 */
export const waybillsAnswer = (waybills: readonly string[]) => JSON.stringify(waybills.join(','));

const num = (value: unknown) =>
  typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;

/**
 * Why Delhivery would refuse a multi-piece create, or null. What the sources show an MPS to be
 * (docs/paperwork.md, "Multi-piece shipments"): Delhivery's order creation API ("in case of MPS,
 * waybill needs to be passed for each box explicitly"); an aggregator's check before it sends one
 * (index id 63094527933: at least two boxes, `shipment_type` "MPS", `mps_amount` a non-negative
 * integer, `mps_children` equal to the number of entries and `master_id` the same on every one);
 * a client's comments on the fields (index id 31233194987: `master_id` "this will master package
 * and need to pass with every package", "first package will always be master package",
 * `mps_children` "sum of master and child package", `mps_amount` "sum of all package amount for
 * cod. Will be zero in case of prepaid"). The waybills must be ones the bulk call issued to this
 * client and no package uses. The words are the simulator's own: no source shows Delhivery's.
 */
export function mpsRefusal(
  shipments: readonly Record<string, unknown>[],
  issued: (waybill: string) => boolean,
  used: (waybill: string) => boolean,
): string | null {
  const count = shipments.length;
  if (count < 2) return 'An MPS shipment needs at least two packages';
  const waybills = shipments.map((s) => (typeof s.waybill === 'string' ? s.waybill.trim() : ''));
  const master = waybills[0]!;
  const first = shipments[0]!;
  for (const [i, shipment] of shipments.entries()) {
    const waybill = waybills[i]!;
    if (String(shipment.shipment_type ?? '').toUpperCase() !== 'MPS')
      return `Package ${i + 1} is not shipment_type MPS`;
    if (waybill === '') return `Waybill is required for every package of an MPS shipment (package ${i + 1})`;
    if (used(waybill)) return `Duplicate waybill ${waybill}`;
    if (!issued(waybill)) return `Waybill ${waybill} was not issued to this client`;
    if (waybills.indexOf(waybill) !== i) return `Waybill ${waybill} is repeated in the shipment`;
    if (String(shipment.master_id ?? '') !== master)
      return `master_id of package ${i + 1} must be the master waybill ${master}`;
    if (num(shipment.mps_children) !== count)
      return `mps_children of package ${i + 1} must be ${count}, the number of packages`;
    const amount = num(shipment.mps_amount);
    if (!Number.isFinite(amount) || amount < 0) return `mps_amount of package ${i + 1} must be a non-negative amount`;
    if (amount !== num(first.mps_amount)) return 'mps_amount must be the same on every package';
    if (shipment.payment_mode !== first.payment_mode) return 'payment_mode must be the same on every package';
  }
  const cod = String(first.payment_mode).toUpperCase() === 'COD';
  const amount = num(first.mps_amount);
  if (!cod && amount !== 0) return 'mps_amount must be 0 for a prepaid MPS shipment';
  if (cod && amount <= 0) return 'mps_amount must be the amount to collect for a COD MPS shipment';
  return null;
}

/** Why one entry of a create call is refused on its own fields, if it is (the simulator's words). */
export function entryRefusal(shipment: Record<string, unknown>): string | undefined {
  const missing = ['name', 'add', 'pin', 'phone', 'order', 'payment_mode'].filter(
    (field) => !shipment[field] && shipment[field] !== 0,
  );
  if (missing.length > 0) return `Missing ${missing.join(', ')}`;
  if (String(shipment.pin).startsWith('79')) return 'Non serviceable pincode';
  return undefined;
}

/** A booked package's entry of the create call's answer. */
export const bookedPackage = (waybill: string, shipment: Record<string, unknown>) => ({
  status: 'Success',
  client: 'DAKIYATEST',
  sort_code: 'BOM/ANR',
  remarks: [],
  waybill,
  cod_amount: shipment.cod_amount,
  payment: shipment.payment_mode,
  serviceable: true,
  refnum: shipment.order,
});

/** The create call's answer: each package's outcome, and the counts Delhivery's answer carries. */
export function createAnswer(answered: Record<string, unknown>[]) {
  const ok = answered.every((p) => p.status === 'Success');
  return {
    status: 200,
    body: {
      cash_pickups_count: 0,
      package_count: answered.length,
      upload_wbn: `UPL${Date.now()}`,
      replacement_count: 0,
      rmk: ok ? undefined : 'An internal Error has occurred, Please get in touch with client.support@delhivery.com',
      pickups_count: 0,
      packages: answered,
      cash_pickups: 0,
      cod_count: 0,
      success: ok,
      prepaid_count: answered.length,
      cod_amount: 0,
    },
  };
}
