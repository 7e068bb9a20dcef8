/** Courier market share by service id (data/couriers.json), roughly as Indian D2C brands ship. */
export const COURIER_SHARE: Readonly<Record<string, number>> = {
  CARDELHSURF01: 22,
  CARDELHAIR001: 5,
  CARDELH5KG001: 2,
  CARDELH10KG01: 1,
  CARXPBSSTD001: 14,
  CARXPBS250G01: 6,
  CAREKRTSTD001: 12,
  CARDTDCSTD001: 7,
  CARBLDTAIR001: 5,
  CARBLDTSURF01: 4,
  CARSHFXSTD001: 10,
  CARAMZNSTD001: 9,
  CARINPOSPD001: 3,
};
