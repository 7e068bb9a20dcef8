import type { LightMyRequestResponse } from 'fastify';
import type { TestContext } from '../app.js';
import { admin, CARRIER_TOKENS, MINUTE, ORDER_TRACKING, post, TRACKING_EVENTS } from './http.js';

// --- Couriers' scans ---

export async function issueCarrierToken(ctx: TestContext, carrierId: string): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: CARRIER_TOKENS,
    headers: admin,
    payload: { carrier_id: carrierId },
  });
  if (response.statusCode !== 201) throw new Error(`carrier token failed: ${response.statusCode} ${response.body}`);
  return response.json().token;
}

export interface CarrierEvent {
  awb: string;
  status: string;
  event_time: string;
  sub_status?: string;
  location?: string;
  description?: string;
  ndr_reason?: string;
  rto_reason?: string;
  event_id?: string;
  /** A quality-checked return's QC result: passed on return_picked_up, failed (with qc_reason) on return_cancelled. */
  qc_status?: string;
  qc_reason?: string;
}

export interface EventResult {
  awb: string;
  accepted: boolean;
  duplicate?: boolean;
  changed?: false;
  reason?: string;
  error?: string;
}

export function postEvents(ctx: TestContext, token: string, events: unknown[]): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'POST',
    url: TRACKING_EVENTS,
    headers: { authorization: `Bearer ${token}` },
    payload: { events },
  });
}

/** Sends a batch and returns the per-event answers; fails on anything but 200. */
export async function sendEvents(ctx: TestContext, token: string, events: CarrierEvent[]): Promise<EventResult[]> {
  const response = await postEvents(ctx, token, events);
  if (response.statusCode !== 200) throw new Error(`events refused: ${response.statusCode} ${response.body}`);
  return response.json().results;
}

/** An ISO timestamp `minutes` after the test clock's start (06:30Z), in UTC. */
export const at = (minutes: number) =>
  new Date(Date.parse('2026-11-20T06:30:00.000Z') + minutes * MINUTE).toISOString();

// --- Order tracking ---

export interface TrackActivity {
  date: string;
  activity: string;
  status: string;
  description: string | null;
  location: string | null;
  sr_status_label: string | null;
}

export interface TrackingData {
  track_status: 0 | 1;
  error?: string;
  shipment_status?: string;
  shipment_sub_status?: string | null;
  shipment_track?: Record<string, unknown>[];
  shipment_track_activities?: TrackActivity[];
  track_url?: string | null;
}

/** One AWB's tracking_data from POST /order-tracking; fails on anything but 200. */
export async function track(ctx: TestContext, apiKey: string, awb: string): Promise<TrackingData> {
  const response = await post(ctx, apiKey, ORDER_TRACKING, { awbs: [awb] });
  if (response.statusCode !== 200) throw new Error(`order-tracking failed: ${response.statusCode} ${response.body}`);
  return response.json().result[awb].tracking_data;
}
