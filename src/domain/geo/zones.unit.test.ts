import { describe, expect, it } from 'vitest';
import type { PincodeEntry } from './pincodes.js';
import { classifyZone, parseZoneRegions, type Zone, zoneLabel } from './zones.js';
import { loadPincodeDirectory, loadZoneRegions } from '../../data-files.js';

const directory = loadPincodeDirectory();
const regions = loadZoneRegions(undefined, directory);

function entry(pincode: string): PincodeEntry {
  const found = directory.lookup(pincode);
  if (found === undefined) throw new Error(`test pincode ${pincode} is not in the directory`);
  return found;
}

describe('classifyZone over real pincodes', () => {
  // [origin, destination, zone, why]
  const cases: [string, string, Zone, string][] = [
    // A: same (state, district)
    ['110001', '110004', 'A', 'New Delhi → New Delhi'],
    ['302001', '302002', 'A', 'Jaipur → Jaipur, non-metro same district'],
    ['410301', '411001', 'A', 'Pune → Pune'],
    ['380001', '380002', 'A', 'Ahmedabad → Ahmedabad'],
    ['682001', '682024', 'A', 'Ernakulam → Ernakulam: same city inside a special region'],
    ['190001', '190002', 'A', 'Srinagar → Srinagar: same city inside a special region'],
    ['744101', '744102', 'A', 'South Andamans → South Andamans'],
    ['682551', '682555', 'A', 'Lakshadweep → Lakshadweep'],
    // A: same metro cluster, different districts (and states, for NCR)
    ['110001', '110092', 'A', 'New Delhi → East Delhi'],
    ['110031', '110020', 'A', 'Shahdara → South East Delhi'],
    ['110001', '122001', 'A', 'Delhi → Gurugram (NCR)'],
    ['122001', '201301', 'A', 'Gurugram, Haryana → Noida, UP (NCR)'],
    ['121001', '201001', 'A', 'Faridabad → Ghaziabad (NCR)'],
    ['400001', '400050', 'A', 'Mumbai → Mumbai Suburban'],
    ['400050', '421301', 'A', 'Mumbai Suburban → Thane'],
    ['700001', '711101', 'A', 'Kolkata → Howrah'],
    ['711101', '700124', 'A', 'Howrah → North 24 Parganas'],
    ['500001', '500005', 'A', 'Hyderabad → Ranga Reddy'],
    ['500005', '500013', 'A', 'Ranga Reddy → Medchal Malkajgiri'],
    ['900099', '700001', 'A', 'APS pincode labelled Kolkata: zone still by district'],
    // E: either end special, beats B and C
    ['110001', '682001', 'E', 'metro → Kerala'],
    ['400001', '194101', 'E', 'metro → Ladakh'],
    ['781001', '110001', 'E', 'Assam → metro'],
    ['744101', '600001', 'E', 'Andaman → Chennai'],
    ['737101', '700001', 'E', 'Sikkim → Kolkata'],
    ['682001', '695001', 'E', 'Ernakulam → Thiruvananthapuram: same special state, not B'],
    ['190001', '194101', 'E', 'Srinagar → Leh'],
    ['194101', '194102', 'E', 'Leh → Kargil, both Ladakh'],
    ['171001', '160017', 'E', 'Shimla → Chandigarh, neighbours'],
    ['682555', '682001', 'E', 'Lakshadweep → Kerala'],
    ['210301', '174304', 'E', 'Hamirpur UP → Hamirpur HP: same district name, different states'],
    ['793001', '799001', 'E', 'Meghalaya → Tripura'],
    ['795001', '797001', 'E', 'Manipur → Nagaland'],
    ['796001', '791001', 'E', 'Mizoram → Arunachal Pradesh'],
    // B: same state, different district, not one cluster
    ['400001', '411001', 'B', 'Mumbai → Pune: two clusters in one state'],
    ['411001', '413001', 'B', 'Pune → Solapur'],
    ['560001', '562110', 'B', 'Bengaluru Urban → Bengaluru Rural'],
    ['600001', '600100', 'B', 'Chennai → Chengalpattu'],
    ['201301', '226001', 'B', 'Noida → Lucknow: metro to non-metro, same state'],
    ['226001', '208001', 'B', 'Lucknow → Kanpur'],
    ['380001', '395001', 'B', 'Ahmedabad → Surat'],
    ['122001', '121001', 'A', 'Gurugram → Faridabad: one state, one cluster'],
    // C: both ends metro, different clusters and states
    ['110001', '400001', 'C', 'Delhi → Mumbai'],
    ['560001', '600001', 'C', 'Bengaluru → Chennai'],
    ['700001', '500001', 'C', 'Kolkata → Hyderabad'],
    ['122001', '411001', 'C', 'Gurugram → Pune'],
    ['201301', '400601', 'C', 'Noida (UP) → Thane'],
    ['380001', '560100', 'C', 'Ahmedabad → Bengaluru'],
    // D: the rest
    ['110001', '302001', 'D', 'Delhi → Jaipur: metro to non-metro'],
    ['800001', '834001', 'D', 'Patna → Ranchi: neighbouring states'],
    ['143001', '160017', 'D', 'Amritsar → Chandigarh'],
    ['452001', '302001', 'D', 'Indore → Jaipur'],
    ['751001', '492001', 'D', 'Bhubaneswar → Raipur'],
    ['403001', '416001', 'D', 'Goa → Kolhapur: neighbours'],
    ['804409', '423701', 'D', 'Aurangabad, Bihar → Aurangabad, Maharashtra'],
    ['495001', '174001', 'E', 'Bilaspur, Chhattisgarh → Bilaspur, HP'],
  ];

  it.each(cases)('%s → %s is zone %s (%s)', (origin, destination, zone) => {
    expect(classifyZone(entry(origin), entry(destination), regions)).toBe(zone);
  });

  it('covers every zone', () => {
    expect(new Set(cases.map((c) => c[2]))).toEqual(new Set(['A', 'B', 'C', 'D', 'E']));
  });

  it.each(cases)('%s → %s is symmetric', (origin, destination) => {
    expect(classifyZone(entry(destination), entry(origin), regions)).toBe(
      classifyZone(entry(origin), entry(destination), regions),
    );
  });
});

describe('zones.json', () => {
  it('names only (state, district) pairs that exist in the directory', () => {
    const missing = regions.clusters.flatMap((cluster) =>
      cluster.districts
        .filter(({ state, district }) => !directory.hasDistrict(state, district))
        .map(({ state, district }) => `${cluster.id}: ${district}, ${state}`),
    );
    expect(missing).toEqual([]);
    expect(regions.clusters.reduce((n, c) => n + c.districts.length, 0)).toBe(28);
  });

  it('names only states that exist in the directory', () => {
    const missing = [...regions.specialStates].filter((state) => !directory.states.has(state));
    expect(missing).toEqual([]);
    expect(regions.specialStates.size).toBe(14);
  });

  it('puts every Delhi district in the NCR cluster', () => {
    const delhiDistricts = new Set<string>();
    for (let pin = 110001; pin <= 110099; pin++) {
      const found = directory.lookup(String(pin));
      if (found?.state === 'Delhi') delhiDistricts.add(found.district);
    }
    expect(delhiDistricts.size).toBe(11);
    for (const district of delhiDistricts) expect(regions.clusterOf('Delhi', district)).toBe('delhi_ncr');
  });

  it.each([
    [{ metro_clusters: [], special_region_states: [], extra: 1 }, 'field "extra": is not a known field'],
    [
      { metro_clusters: [{ id: 'x', name: 'X', districts: [] }], special_region_states: [] },
      'metro_clusters.0.districts',
    ],
    [{ special_region_states: [] }, 'field "metro_clusters": is required'],
    [
      {
        metro_clusters: [{ id: 'x', name: 'X', districts: [{ state: 'Delhi', district: 'Nowhere' }] }],
        special_region_states: [],
      },
      'no district "Nowhere" in state "Delhi"',
    ],
    [
      {
        metro_clusters: [
          { id: 'a', name: 'A', districts: [{ state: 'Delhi', district: 'East' }] },
          { id: 'b', name: 'B', districts: [{ state: 'Delhi', district: 'East' }] },
        ],
        special_region_states: [],
      },
      'East, Delhi is already in cluster a',
    ],
    [{ metro_clusters: [], special_region_states: ['Kerela'] }, 'no state "Kerela"'],
  ])('rejects a bad file with a clear message (%#)', (json, message) => {
    expect(() => parseZoneRegions(json, 'zones.json', directory)).toThrow(message);
  });

  it('labels zones for listings and serviceability', () => {
    expect(zoneLabel('A')).toBe('zone_a');
    expect(zoneLabel('E')).toBe('zone_e');
  });
});
