import type { EwayBillRequest } from '../../domain/paperwork/eway-bill-request.js';

/*
 * Generating Part A of an e-way bill, whoever carries the request to the portal: today a GST
 * Suvidha Provider's API (gsp-client.ts), tomorrow perhaps NIC's own. The generation service sees
 * only this interface and the three ways it can fail.
 */

/** An account's GSP credentials, opened: what the auth call and the generate call carry. */
export interface GatewayCredentials {
  baseUrl: string;
  /** The GSTIN whose e-way bill user the username is; the GSP's `gstin` header. */
  gstin: string;
  /** The e-mail the GSP knows the account by (its `email` query parameter). */
  email: string;
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
}

/** The portal's answer to a bill generated: its number, its time and the end of its validity, as the portal writes them. */
export interface GeneratedBill {
  /** 12 digits. */
  ewayBillNo: string;
  /** India time, ISO 8601 with +05:30. */
  generatedAt: string;
  /** India time, ISO 8601 with +05:30; null when the portal gave none (Part A without Part B). */
  validUpto: string | null;
  /** The portal's note (the distance it computed between the pincodes), when it gave one. */
  alert: string | null;
}

export interface EwayBillGateway {
  generate(credentials: GatewayCredentials, request: EwayBillRequest): Promise<GeneratedBill>;
}

/** The GSP or portal answered with error codes: at the auth call or the generate call. */
export class GatewayRefusal extends Error {
  constructor(
    readonly stage: 'auth' | 'generate',
    readonly codes: readonly string[],
    /** The GSP's own words beside the codes (its status_desc), cut short; never shown unless no code came. */
    readonly description: string,
  ) {
    super(`${stage} refused: ${codes.join(',') || description}`);
  }
}

/** No answer Dakiya can use came: the GSP could not be reached, timed out, failed, or said something unreadable. */
export class GatewayFailure extends Error {
  constructor(
    message: string,
    /** `unreadable`: an answer came that is neither a bill nor a refusal (a bill may exist). */
    readonly reason: 'down' | 'unreadable',
  ) {
    super(message);
  }
}

const IST = '+05:30';

/**
 * The portal's time, `dd/mm/yyyy hh:mm:ss AM` (Odoo's test answer "11/06/2024 06:37:15 AM";
 * a live one, "25/06/2026 01:06:00 PM", index id 55556198643), as ISO 8601 in India time.
 */
export function portalTime(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const match = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})(?::(\d{2}))? ?(AM|PM)?$/i.exec(text.trim());
  if (!match) return null;
  const [, dd, mm, yyyy, hh, min, ss = '00', half] = match;
  let hour = Number(hh);
  if (half?.toUpperCase() === 'PM' && hour < 12) hour += 12;
  if (half?.toUpperCase() === 'AM' && hour === 12) hour = 0;
  return `${yyyy}-${mm}-${dd}T${String(hour).padStart(2, '0')}:${min}:${ss}${IST}`;
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** `"238"`, `"219,702,"` (a trailing comma, as a Go client reads it: index id 58217446000) → ['238'], ['219', '702']. */
const codeList = (value: unknown): string[] =>
  typeof value === 'string' || typeof value === 'number'
    ? String(value)
        .split(',')
        .map((code) => code.trim())
        .filter((code) => /^\d{1,5}$/.test(code))
    : [];

function codesInText(text: string): string[] {
  for (const candidate of [text, Buffer.from(text, 'base64').toString('utf8')]) {
    try {
      const inner = record(JSON.parse(candidate));
      const codes = codeList(inner?.errorCodes ?? inner?.errorCode);
      if (codes.length > 0) return codes;
    } catch {
      // not JSON: the next reading
    }
  }
  return [];
}

/**
 * The error codes of a refusal, in every shape found answering: a GSP's `{status_cd: "0", error:
 * {message: "{\"errorCodes\":\"238\"}"}}` (a WhiteBooks client, index id 52904273696), its
 * `error.error_cd` (techsavvyash/accounts, packages/ewaybill/src/client.ts), a top-level
 * `errorCode` (the same WhiteBooks client's "shape A"), and NIC's own `{status: "0", error:
 * "<base64 of {\"errorCodes\":\"116\"}>"}` (index id 63313819106).
 */
export function refusalCodes(body: Record<string, unknown>): string[] {
  const error = body.error;
  const inner = record(error);
  if (inner) {
    if (typeof inner.message === 'string') {
      const codes = codesInText(inner.message);
      if (codes.length > 0) return codes;
    }
    const codes = codeList(inner.error_cd ?? inner.errorCodes);
    if (codes.length > 0) return codes;
  }
  if (typeof error === 'string') {
    const codes = codesInText(error);
    if (codes.length > 0) return codes;
  }
  return codeList(body.errorCode ?? body.errorCodes);
}

/** `status_cd` (a GSP's) or `status` (NIC's): "1" succeeded, "0" failed. */
export const statusOf = (body: Record<string, unknown>): string | undefined => {
  const status = body.status_cd ?? body.status;
  return status === undefined ? undefined : String(status);
};

/** The words a GSP put beside a refusal, printable and short. */
export const descriptionOf = (body: Record<string, unknown>): string =>
  typeof body.status_desc === 'string' ? body.status_desc.replace(/[^\x20-\x7e]/g, '').slice(0, 200) : '';

/**
 * A generate answer's bill: `{status_cd: "1", data: {ewayBillNo, ewayBillDate, validUpto, alert}}`
 * (Odoo's test of its gateway, odoo/odoo addons/l10n_in_edi_ewaybill/tests/test_edi_ewaybill_json.py;
 * the number as a JSON number there, as text in some answers; validUpto null in a PeriOne answer,
 * index id 53879452430). Undefined when the answer is not one.
 */
export function billOf(body: Record<string, unknown>): GeneratedBill | undefined {
  const data = record(body.data);
  if (statusOf(body) !== '1' || !data) return undefined;
  const number = typeof data.ewayBillNo === 'number' ? String(data.ewayBillNo) : data.ewayBillNo;
  const generatedAt = portalTime(data.ewayBillDate);
  if (typeof number !== 'string' || !/^\d{12}$/.test(number) || !generatedAt) return undefined;
  const alert =
    typeof data.alert === 'string'
      ? data.alert
          .replace(/[^\x20-\x7e]/g, '')
          .slice(0, 300)
          .trim()
      : '';
  return { ewayBillNo: number, generatedAt, validUpto: portalTime(data.validUpto), alert: alert || null };
}
