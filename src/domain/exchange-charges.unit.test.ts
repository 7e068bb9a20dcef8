import { describe, expect, it } from 'vitest';
import { type ExchangeChargeParts, exchangeCharges } from './exchange-charges.js';

const parts = (more: Partial<ExchangeChargeParts>): ExchangeChargeParts => ({
  forwardFreightPaise: 0,
  forwardCodPaise: 0,
  forwardRtoPaise: 0,
  returnPickupPaise: 0,
  qcPaise: 0,
  exchangePaise: 0,
  ...more,
});

describe("an exchange's charges", () => {
  const cases: [string, Partial<ExchangeChargeParts>, string][] = [
    ['nothing charged', {}, '0.00'],
    ['prepaid, no QC, no fee', { forwardFreightPaise: 4440, forwardRtoPaise: 4000, returnPickupPaise: 9130 }, '135.70'],
    ['COD adds its fee', { forwardFreightPaise: 4440, forwardCodPaise: 3130, returnPickupPaise: 9130 }, '167.00'],
    [
      'QC and the exchange fee',
      { forwardFreightPaise: 4440, returnPickupPaise: 9130, qcPaise: 1500, exchangePaise: 2999 },
      '180.69',
    ],
    ['the RTO charge is never counted', { forwardRtoPaise: 99_999 }, '0.00'],
  ];
  it.each(cases)('%s', (_, given, total) => {
    expect(exchangeCharges(parts(given)).total).toBe(total);
  });

  it('writes each part as two-decimal rupees', () => {
    expect(
      exchangeCharges(
        parts({
          forwardFreightPaise: 4440,
          forwardCodPaise: 3130,
          forwardRtoPaise: 4000,
          returnPickupPaise: 9130,
          qcPaise: 1500,
          exchangePaise: 5,
        }),
      ),
    ).toEqual({
      total: '182.05',
      forward: { forward_charges: '44.40', forward_cod_charges: '31.30', forward_rto_charges: '40.00' },
      reverse: { return_pickup_charges: '91.30', qc_charges: '15.00', exchange_charges: '0.05' },
    });
  });
});
