import { count } from '../../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../../base/settings.js';

/** The shortest period an account may set: a return window and a COD dispute outlast it. */
export const ANONYMISE_MIN_DAYS = 30;
export const ANONYMISE_MAX_DAYS = 3650;

export const privacySettings = defineSettings({
  anonymiseAfterDays: count('BUYER_DATA_ANONYMISE_DAYS', {
    doc: "days after a shipment (or a return of no forward shipment) last changed in a final status (delivered, returned to origin, cancelled, lost, damaged or destroyed) before its buyer's name, phone, e-mail and street address are replaced by `[erased]` everywhere they were copied, by a background job; pincode, city and state are kept. An account sets its own with `PUT /custom/api/v1/privacy-settings` ([docs/data-lifecycle.md](docs/data-lifecycle.md))",
    default: 180,
    min: ANONYMISE_MIN_DAYS,
    max: ANONYMISE_MAX_DAYS,
  }),
  accountDeletionGraceDays: count('ACCOUNT_DELETION_GRACE_DAYS', {
    doc: "days between an owner's request to delete their account (`POST /custom/api/v1/account/deletion`) and the deletion of every row of it by a background job; the owner may take the request back until then, and the account works meanwhile ([docs/data-lifecycle.md](docs/data-lifecycle.md#deleting-an-account))",
    default: 30,
    min: 1,
    max: 365,
  }),
  accountExportKeepHours: count('ACCOUNT_EXPORT_KEEP_HOURS', {
    doc: "hours an account's export (`POST /custom/api/v1/account/exports`: everything the account holds, as JSON lines per table and CSV for the main ones) is kept once written, in `DATA_DIR/exports`; the hourly job then deletes the archive and its record ([docs/data-lifecycle.md](docs/data-lifecycle.md#exporting-an-account))",
    default: 72,
    min: 1,
    max: 720,
  }),
});

export type PrivacySettings = SettingsOf<typeof privacySettings>;
