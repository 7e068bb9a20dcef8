import { count } from '../../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../../base/settings.js';

export const chargeSettings = defineSettings({
  disputeWindowDays: count('WEIGHT_DISPUTE_WINDOW_DAYS', {
    doc: "days a merchant has to accept or dispute a weight discrepancy a courier's weight report opened; past them it is accepted (its extra charge charged) by a sweep each process runs every minute. [docs/money.md](docs/money.md#weight-disputes)",
    default: 7,
    min: 1,
    max: 365,
  }),
});

export type ChargeSettings = SettingsOf<typeof chargeSettings>;
