import { type Static, Type } from 'typebox';
import { DataFileError, formatIssues, pointerToField, schemaIssues } from '../data-file-issues.js';
import type { PincodeDirectory, PincodeEntry } from './pincodes.js';

export const ZONES = ['A', 'B', 'C', 'D', 'E'] as const;
export type Zone = (typeof ZONES)[number];

/** Listings and serviceability spell the zone `zone_a`; `/rates` shows the bare letter. */
export function zoneLabel(zone: Zone): `zone_${Lowercase<Zone>}` {
  return `zone_${zone.toLowerCase() as Lowercase<Zone>}`;
}

const DistrictRef = Type.Object(
  { state: Type.String({ minLength: 1 }), district: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);

export const ZonesFileSchema = Type.Object(
  {
    metro_clusters: Type.Array(
      Type.Object(
        {
          id: Type.String({ pattern: '^[a-z0-9_]+$' }),
          name: Type.String({ minLength: 1 }),
          districts: Type.Array(DistrictRef, { minItems: 1 }),
        },
        { additionalProperties: false },
      ),
    ),
    special_region_states: Type.Array(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);
export type ZonesFile = Static<typeof ZonesFileSchema>;

export interface MetroCluster {
  readonly id: string;
  readonly name: string;
  readonly districts: readonly { readonly state: string; readonly district: string }[];
}

export interface ZoneRegions {
  readonly clusters: readonly MetroCluster[];
  readonly specialStates: ReadonlySet<string>;
  /** Metro cluster id of a (state, district), if any. */
  clusterOf(state: string, district: string): string | undefined;
  isSpecialState(state: string): boolean;
}

/**
 * Precedence matters: a same-city lane inside a special region is still A, and a special-region
 * lane inside one state is E, not B.
 */
export function classifyZone(origin: PincodeEntry, destination: PincodeEntry, regions: ZoneRegions): Zone {
  const originCluster = regions.clusterOf(origin.state, origin.district);
  const destinationCluster = regions.clusterOf(destination.state, destination.district);
  const sameState = origin.state === destination.state;
  if (sameState && origin.district === destination.district) return 'A';
  if (originCluster !== undefined && originCluster === destinationCluster) return 'A';
  if (regions.isSpecialState(origin.state) || regions.isSpecialState(destination.state)) return 'E';
  if (sameState) return 'B';
  if (originCluster !== undefined && destinationCluster !== undefined) return 'C';
  return 'D';
}

/**
 * Loads and validates `data/zones.json`. With a directory, every state and district must exist
 * there too: a misspelt district would otherwise silently drop out of its metro cluster.
 */
export function parseZoneRegions(json: unknown, source = 'zones.json', directory?: PincodeDirectory): ZoneRegions {
  const issues = schemaIssues(ZonesFileSchema, json);
  if (issues.length > 0) {
    throw new DataFileError(
      formatIssues(
        `Invalid zone file ${source}:`,
        issues.map((issue) => `field "${pointerToField(issue.path) || '(root)'}": ${issue.message}`),
      ),
    );
  }
  const file = json as ZonesFile;
  const problems: string[] = [];
  const byState = new Map<string, Map<string, string>>();
  const clusterIds = new Set<string>();

  file.metro_clusters.forEach((cluster, index) => {
    const where = `metro_clusters[${index}] (${cluster.id})`;
    if (clusterIds.has(cluster.id)) problems.push(`${where}: duplicate id`);
    clusterIds.add(cluster.id);
    cluster.districts.forEach(({ state, district }, districtIndex) => {
      const field = `${where} field "districts.${districtIndex}"`;
      let districts = byState.get(state);
      if (districts === undefined) {
        districts = new Map();
        byState.set(state, districts);
      }
      const owner = districts.get(district);
      if (owner !== undefined) {
        problems.push(`${field}: ${district}, ${state} is already in cluster ${owner}`);
      }
      districts.set(district, cluster.id);
      if (directory !== undefined && !directory.hasDistrict(state, district)) {
        problems.push(`${field}: no district "${district}" in state "${state}" in the pincode directory`);
      }
    });
  });

  const specialStates = new Set<string>();
  file.special_region_states.forEach((state, index) => {
    const field = `field "special_region_states.${index}"`;
    if (specialStates.has(state)) problems.push(`${field}: duplicate state "${state}"`);
    specialStates.add(state);
    if (directory !== undefined && !directory.states.has(state)) {
      problems.push(`${field}: no state "${state}" in the pincode directory`);
    }
  });

  if (problems.length > 0) throw new DataFileError(formatIssues(`Invalid zone file ${source}:`, problems));

  return {
    clusters: file.metro_clusters,
    specialStates,
    clusterOf: (state, district) => byState.get(state)?.get(district),
    isSpecialState: (state) => specialStates.has(state),
  };
}
