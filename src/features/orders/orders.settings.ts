import { flag } from '../../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../../base/settings.js';

export const orderSettings = defineSettings({
  rtoChecks: flag('RTO_CHECKS', {
    doc: '`false` books without the address checks and the RTO risk score (their fields are null on such shipments); `bench/risk.ts` compares the two ([docs/rto.md](docs/rto.md))',
    default: true,
  }),
});

export type OrderSettings = SettingsOf<typeof orderSettings>;
