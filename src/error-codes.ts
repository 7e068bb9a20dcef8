import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ErrorCatalogue, ErrorCode, GENERIC_ERRORS } from './domain/errors.js';
import { OUTBOUND_ERRORS } from './domain/outbound.errors.js';
import { COURIER_CHOICE_ERRORS } from './domain/rates/courier-choice.errors.js';
import { SHIPMENT_ERRORS } from './domain/shipment/shipment.errors.js';
import { CHARGE_ERRORS } from './features/charges/charges.errors.js';
import { COD_LEDGER_ERRORS } from './features/cod-ledger/cod-ledger.errors.js';
import { LABEL_ERRORS } from './features/labels/labels.errors.js';
import { INVOICE_ERRORS } from './features/labels/invoice.errors.js';
import { PAPERWORK_ERRORS } from './features/paperwork/paperwork.errors.js';
import { NDR_ERRORS } from './features/ndr/ndr.errors.js';
import { PICKUP_ERRORS } from './features/pickups/pickups.errors.js';
import { RTO_ERRORS } from './features/rto/rto.errors.js';
import { TRACKING_ERRORS } from './features/tracking/tracking.errors.js';
import { ALLOCATION_ERRORS } from './features/allocation/allocation.errors.js';
import { ORDER_ERRORS } from './features/orders/orders.errors.js';
import { RATE_ERRORS } from './features/rates/rates.errors.js';
import { REFUND_ERRORS } from './features/refunds/refunds.errors.js';
import { RETURN_REPORT_ERRORS } from './readers/return-reports/return-reports.errors.js';
import { RETURN_REQUEST_ERRORS } from './features/return-requests/return-requests.errors.js';
import { RETURN_ERRORS } from './features/returns/returns.errors.js';
import { CHANNEL_ERRORS } from './features/sales-channels/sales-channels.errors.js';
import { statusOfKind } from './http/errors.js';
import { AUTH_ERRORS } from './http/auth.errors.js';
import { ACCESS_ERRORS } from './domain/access/access.errors.js';
import { ACCOUNT_ERRORS } from './tenancy/accounts/accounts.errors.js';
import { MEMBER_ERRORS } from './tenancy/accounts/members.errors.js';
import { STORE_ERRORS } from './tenancy/stores/stores.errors.js';
import { WAREHOUSE_ERRORS } from './tenancy/warehouses/warehouses.errors.js';
import { COURIER_ERRORS } from './couriers/couriers.errors.js';
import { GUARD_ERRORS } from './http/guards.errors.js';
import { PAGING_ERRORS } from './domain/paging.errors.js';
import { WEBHOOK_ERRORS } from './consumers/webhooks/webhooks.errors.js';
import { MESSAGING_ERRORS } from './consumers/messaging/messaging.errors.js';
import { PRIVACY_ERRORS } from './consumers/privacy/privacy.errors.js';
import { TRACKING_PAGE_ERRORS } from './consumers/tracking-page/tracking-page.errors.js';
import { SHIPMENT_LISTING_ERRORS } from './readers/shipments/shipments.errors.js';
import { REPORT_ERRORS } from './readers/reports/reports.errors.js';
import { COD_REPORT_ERRORS } from './readers/cod-reports/cod-reports.errors.js';
import { HTTP_ERRORS, type HttpErrorCode } from './http/http.errors.js';

/**
 * Every module's catalogue of errors (its `*.errors.ts`), by the module that declares it: the one
 * list of codes an answer can carry, which docs/errors.md and OpenAPI show. A catalogue a module
 * declares and this list lacks fails error-codes.unit.test.ts.
 */
export const CATALOGUES: Record<string, ErrorCatalogue | Readonly<Record<string, HttpErrorCode>>> = {
  'any module (generic)': GENERIC_ERRORS,
  'HTTP kit': HTTP_ERRORS,
  'outbound URLs': OUTBOUND_ERRORS,
  'HTTP kit: credentials': AUTH_ERRORS,
  'domain: permissions': ACCESS_ERRORS,
  'tenancy: accounts': ACCOUNT_ERRORS,
  'tenancy: members': MEMBER_ERRORS,
  'tenancy: stores': STORE_ERRORS,
  'tenancy: warehouses': WAREHOUSE_ERRORS,
  couriers: COURIER_ERRORS,
  'HTTP kit: guards': GUARD_ERRORS,
  'paging (any listing)': PAGING_ERRORS,
  'shipments (any module)': SHIPMENT_ERRORS,
  'consumers: webhooks': WEBHOOK_ERRORS,
  'consumers: messaging': MESSAGING_ERRORS,
  'consumers: privacy': PRIVACY_ERRORS,
  'consumers: tracking page': TRACKING_PAGE_ERRORS,
  'readers: shipments': SHIPMENT_LISTING_ERRORS,
  'readers: reports': REPORT_ERRORS,
  'readers: COD reports': COD_REPORT_ERRORS,
  'courier choice': COURIER_CHOICE_ERRORS,
  orders: ORDER_ERRORS,
  returns: RETURN_ERRORS,
  'return requests': RETURN_REQUEST_ERRORS,
  refunds: REFUND_ERRORS,
  'return reports': RETURN_REPORT_ERRORS,
  rates: RATE_ERRORS,
  allocation: ALLOCATION_ERRORS,
  charges: CHARGE_ERRORS,
  'cod-ledger': COD_LEDGER_ERRORS,
  labels: LABEL_ERRORS,
  'labels: tax invoices': INVOICE_ERRORS,
  'paperwork: e-way bill generation': PAPERWORK_ERRORS,
  ndr: NDR_ERRORS,
  rto: RTO_ERRORS,
  pickups: PICKUP_ERRORS,
  tracking: TRACKING_ERRORS,
  'sales channels': CHANNEL_ERRORS,
};

export interface ListedCode {
  code: string;
  status: number;
  description: string;
  module: string;
}

export const ERROR_CODES: ListedCode[] = Object.entries(CATALOGUES)
  .flatMap(([module, catalogue]) =>
    Object.values(catalogue).map((entry) => ({
      code: entry.code,
      status: entry instanceof ErrorCode ? statusOfKind(entry.kind) : (entry as HttpErrorCode).status,
      description: entry.description,
      module,
    })),
  )
  .sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const ERRORS_DOCUMENT = path.join(ROOT, 'docs/errors.md');

/** docs/errors.md as the catalogues say it, generated so it cannot drift (`npm run docs:errors`). */
export function errorsDocument(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const rows = ERROR_CODES.map((c) => `| \`${c.code}\` | ${c.status} | ${cell(c.description)} | ${c.module} |`);
  return [
    '# Error codes',
    '',
    "<!-- Generated from the modules' `*.errors.ts` catalogues by `npm run docs:errors`; edit those, not this. -->",
    '',
    'Every error answer carries a `code` beside `message`, `errors` and (where input fields are at fault)',
    '`details`: a stable, machine-readable name of the problem. Branch on the code, never on the words,',
    'which may be reworded. A code is never renamed or given another meaning; a problem no module names',
    "more precisely carries its kind's generic code (`invalid_request`, `not_found`, `conflict`, ...).",
    '',
    '```json',
    '{ "code": "store_name_taken", "message": "A store named Acme already exists", "errors": ["A store named Acme already exists"] }',
    '```',
    '',
    '| Code | Status | Meaning | Declared by |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

/** The `*.errors.ts` files under src/, each with the catalogues it exports. */
export async function declaredCatalogues(): Promise<{ file: string; catalogues: unknown[] }[]> {
  const files = (await readdir(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })).filter((file) =>
    file.endsWith('.errors.ts'),
  );
  return Promise.all(
    files.map(async (file) => {
      const exported = (await import(path.join(ROOT, 'src', file))) as Record<string, unknown>;
      const catalogues = Object.values(exported).filter(
        (value) =>
          value !== null &&
          typeof value === 'object' &&
          Object.values(value).length > 0 &&
          Object.values(value).every((entry) => entry instanceof ErrorCode || isHttpErrorCode(entry)),
      );
      return { file: `src/${file}`, catalogues };
    }),
  );
}

const isHttpErrorCode = (entry: unknown): entry is HttpErrorCode =>
  typeof entry === 'object' && entry !== null && 'code' in entry && 'status' in entry && 'description' in entry;

export async function writeErrorsDocument(): Promise<void> {
  await writeFile(ERRORS_DOCUMENT, errorsDocument());
}

export const readErrorsDocument = () => readFile(ERRORS_DOCUMENT, 'utf8');
