import { describe, expect, it } from 'vitest';
import type { ExchangeChargeParts } from '../../domain/exchange-charges.js';
import type { CourierService } from '../../domain/rates/catalogue.js';
import { carrierLink, chargeParts } from './exchange-element.js';

describe("an exchange's charge parts from what its legs stored", () => {
  type Legs = Parameters<typeof chargeParts>[0];
  const booked: Legs = {
    exchange: { qcChargePaise: null, exchangeChargePaise: 2999 },
    forward: { freightPaise: 4440, codChargesPaise: 3130, rtoChargesPaise: 4000 },
    ret: { freightPaise: 9130, qcApplied: true, qcPaise: 1200 },
  };
  const cases: [string, Legs, ExchangeChargeParts][] = [
    [
      'both legs charged, the courier QC charge',
      booked,
      {
        forwardFreightPaise: 4440,
        forwardCodPaise: 3130,
        forwardRtoPaise: 4000,
        returnPickupPaise: 9130,
        qcPaise: 1200,
        exchangePaise: 2999,
      },
    ],
    [
      "the account's QC charge over the courier's",
      { ...booked, exchange: { qcChargePaise: 1500, exchangeChargePaise: 0 } },
      {
        forwardFreightPaise: 4440,
        forwardCodPaise: 3130,
        forwardRtoPaise: 4000,
        returnPickupPaise: 9130,
        qcPaise: 1500,
        exchangePaise: 0,
      },
    ],
    [
      'no charge stored on either leg counts 0, and a pickup without QC has no QC charge',
      {
        exchange: { qcChargePaise: 1500, exchangeChargePaise: 0 },
        forward: { freightPaise: null, codChargesPaise: null, rtoChargesPaise: null },
        ret: { freightPaise: null, qcApplied: null, qcPaise: null },
      },
      {
        forwardFreightPaise: 0,
        forwardCodPaise: 0,
        forwardRtoPaise: 0,
        returnPickupPaise: 0,
        qcPaise: 0,
        exchangePaise: 0,
      },
    ],
  ];
  it.each(cases)('%s', (_, legs, parts) => {
    expect(chargeParts(legs)).toEqual(parts);
  });
});

describe("a leg's courier", () => {
  const catalogue = { byId: new Map([['delhivery-surface', { name: 'Delhivery Surface' } as CourierService]]) };
  const cases: [string, string | null, { id: string; name: string } | null][] = [
    ['by its catalogue name', 'delhivery-surface', { id: 'delhivery-surface', name: 'Delhivery Surface' }],
    ['one the catalogue no longer lists, by its id', 'withdrawn-air', { id: 'withdrawn-air', name: 'withdrawn-air' }],
    ['none before a courier is assigned', null, null],
  ];
  it.each(cases)('%s', (_, id, link) => {
    expect(carrierLink(catalogue, id)).toEqual(link);
  });
});
