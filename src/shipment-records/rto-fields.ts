import { Type } from 'typebox';
import { ADDRESS_REASONS, ADDRESS_VALIDITIES } from '../domain/rto/address-check.js';
import { RISK_REASONS, RTO_RISKS } from '../domain/rto/risk.js';

// The address checks and RTO risk as a booking answers them and the listing shows them
// (docs/rto.md): one schema for both, so they cannot drift apart.

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

export const RtoAssessmentFields = {
  address_validity: nullable(
    Type.Enum(ADDRESS_VALIDITIES),
    "Dakiya's addition: the address checks at booking (docs/rto.md). null on shipments booked before them or with RTO_CHECKS off.",
  ),
  address_reasons: nullable(
    Type.Array(Type.Enum(Object.keys(ADDRESS_REASONS) as (keyof typeof ADDRESS_REASONS)[])),
    "Why the address is not valid, in the checks' order; [] when valid.",
  ),
  rto_risk: nullable(
    Type.Enum(RTO_RISKS),
    "low, medium or high: the score against the account's thresholds (PUT /rto-risk/thresholds).",
  ),
  rto_risk_score: nullable(Type.Integer({ minimum: 0 }), "The sum of the reasons' points (at least 0)."),
  rto_risk_reasons: nullable(
    Type.Array(Type.Object({ reason: Type.Enum(RISK_REASONS), points: Type.Integer() })),
    "Each reason that added (or took away) points, in the scoring's order.",
  ),
};

/** The fields of a shipment booked from a valid address, COD: as the examples answer them. */
export const EXAMPLE_ASSESSMENT = {
  address_validity: 'valid',
  address_reasons: [],
  rto_risk: 'low',
  rto_risk_score: 20,
  rto_risk_reasons: [{ reason: 'cod', points: 20 }],
} as const;
