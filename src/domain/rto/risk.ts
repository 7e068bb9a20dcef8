import type { FieldError } from '../errors.js';
import type { AddressValidity } from './address-check.js';

/**
 * RTO risk: an explainable points score, computed at booking. Each reason adds (or takes away) a
 * fixed number of points, the sum is compared with the account's two thresholds, and the reasons
 * are kept with their points, so "why high?" always has an answer a merchant can check by hand.
 * Deterministic: the same order and the same history give the same score.
 */

export const RTO_RISKS = ['low', 'medium', 'high'] as const;
export type RtoRisk = (typeof RTO_RISKS)[number];

/** What a delivered history holds for one key (a buyer's phone, a pincode, a district) in one account. */
export interface Outcomes {
  delivered: number;
  rto: number;
  /** NDRs the courier reported as refused by the buyer. */
  refused: number;
}

export const NO_OUTCOMES: Outcomes = { delivered: 0, rto: 0, refused: 0 };

export interface RiskThresholds {
  /** A score at or above this is medium. */
  medium: number;
  /** A score at or above this is high. */
  high: number;
  /** A COD amount at or above this (paise) is a high-value COD order. */
  highValuePaise: number;
}

export const DEFAULT_THRESHOLDS: RiskThresholds = { medium: 30, high: 60, highValuePaise: 300_000 };
/** The largest threshold a merchant may set: far above any score the reasons can add up to. */
export const MAX_THRESHOLD = 1_000;
export const MAX_HIGH_VALUE_PAISE = 100_000_000;

export interface RiskInput {
  cod: boolean;
  codPaise: number;
  addressValidity: AddressValidity;
  buyer: Outcomes;
  pincode: Outcomes;
  district: Outcomes;
}

export const RISK_REASONS = [
  'cod',
  'high_value_cod',
  'address_incomplete',
  'address_suspicious',
  'buyer_rto_history',
  'buyer_refusal_history',
  'buyer_delivered_before',
  'pincode_rto_rate',
  'district_rto_rate',
] as const;
export type RiskReason = (typeof RISK_REASONS)[number];

export interface RiskPart {
  reason: RiskReason;
  points: number;
}

export interface RiskResult {
  risk: RtoRisk;
  score: number;
  /** The reasons that added or took points, in RISK_REASONS order. */
  reasons: RiskPart[];
}

/** The points of each reason; docs/rto.md lists them. */
export const POINTS = {
  cod: 20,
  highValueCod: 15,
  addressIncomplete: 15,
  addressSuspicious: 30,
  /** Per earlier RTO of this buyer, up to two: two RTOs alone make a buyer high risk. */
  buyerRto: 30,
  buyerRtoCap: 60,
  /** Per earlier refusal, up to two. */
  buyerRefusal: 10,
  buyerRefusalCap: 20,
  /** A buyer with two or more deliveries and never an RTO. */
  buyerDelivered: -15,
  /** The area's RTO rate: at or above HIGH_AREA_RATE, or at or above AREA_RATE. */
  areaHigh: 20,
  area: 10,
} as const;

export const AREA_RATE = 0.15;
export const HIGH_AREA_RATE = 0.3;
/** Outcomes an area needs before its rate counts: one RTO in two parcels says nothing yet. */
export const MIN_PINCODE_OUTCOMES = 5;
export const MIN_DISTRICT_OUTCOMES = 20;
const BUYER_TRUSTED_DELIVERIES = 2;

function areaPoints(outcomes: Outcomes, minimum: number): number {
  const total = outcomes.delivered + outcomes.rto;
  if (total < minimum) return 0;
  const rate = outcomes.rto / total;
  return rate >= HIGH_AREA_RATE ? POINTS.areaHigh : rate >= AREA_RATE ? POINTS.area : 0;
}

export function scoreRisk(input: RiskInput, thresholds: RiskThresholds): RiskResult {
  const parts: RiskPart[] = [];
  const add = (reason: RiskReason, points: number) => {
    if (points !== 0) parts.push({ reason, points });
  };
  if (input.cod) {
    add('cod', POINTS.cod);
    if (input.codPaise >= thresholds.highValuePaise) add('high_value_cod', POINTS.highValueCod);
  }
  if (input.addressValidity === 'incomplete') add('address_incomplete', POINTS.addressIncomplete);
  if (input.addressValidity === 'suspicious') add('address_suspicious', POINTS.addressSuspicious);
  add('buyer_rto_history', Math.min(input.buyer.rto * POINTS.buyerRto, POINTS.buyerRtoCap));
  add('buyer_refusal_history', Math.min(input.buyer.refused * POINTS.buyerRefusal, POINTS.buyerRefusalCap));
  if (input.buyer.rto === 0 && input.buyer.delivered >= BUYER_TRUSTED_DELIVERIES)
    add('buyer_delivered_before', POINTS.buyerDelivered);
  // The district speaks only for a pincode too new to speak for itself.
  const pincode = areaPoints(input.pincode, MIN_PINCODE_OUTCOMES);
  const pincodeKnown = input.pincode.delivered + input.pincode.rto >= MIN_PINCODE_OUTCOMES;
  add('pincode_rto_rate', pincode);
  if (!pincodeKnown) add('district_rto_rate', areaPoints(input.district, MIN_DISTRICT_OUTCOMES));

  const score = Math.max(
    0,
    parts.reduce((sum, part) => sum + part.points, 0),
  );
  const risk: RtoRisk = score >= thresholds.high ? 'high' : score >= thresholds.medium ? 'medium' : 'low';
  return { risk, score, reasons: parts };
}

/** Every reason a merchant's thresholds cannot be used, each naming its field. */
export function thresholdProblems(t: RiskThresholds): FieldError[] {
  const problems: FieldError[] = [];
  if (t.medium >= t.high) problems.push({ field: 'medium', message: 'medium must be below high' });
  return problems;
}
