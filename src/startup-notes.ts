import type { CourierCatalogue } from './domain/rates/catalogue.js';
import { issuesTestAwbs } from './domain/rates/catalogue.js';

/** Where customer e-mails go without SMTP_URL. */
export const outboxNote = (publicBaseUrl: string) =>
  'SMTP_URL is not set: customer e-mails are not sent but kept in the outbox; read them at ' +
  `GET ${publicBaseUrl}/custom/api/v1/shipments/{shipment_id or AWB}/emails (set SMTP_URL and MAIL_FROM to send them)`;

/**
 * What a server says at start-up about what is not real: e-mails kept rather than sent, and
 * courier services whose bookings are test bookings. Each line says where to look or what to set.
 */
export function startupNotes(
  settings: {
    mail: { smtpUrl: string | undefined };
    server: { publicBaseUrl: string };
    couriers: { catalogueFile: string | undefined };
  },
  catalogue: CourierCatalogue,
): string[] {
  const notes: string[] = [];
  if (settings.mail.smtpUrl === undefined) {
    notes.push(outboxNote(settings.server.publicBaseUrl));
  }
  const test = catalogue.services.filter(issuesTestAwbs);
  if (test.length > 0) {
    const sandbox = test.filter((s) => s.connector === 'sandbox').length;
    notes.push(
      `${test.length} of ${catalogue.services.length} courier services book test shipments (${sandbox} on the sandbox connector, ` +
        `${test.length - sandbox} on push without an allotted awb_series): no courier issued their AWBs or will collect their parcels. ` +
        `To connect a real courier, edit ${settings.couriers.catalogueFile ?? 'data/couriers.json'} (docs/couriers.md#connectors)`,
    );
  }
  return notes;
}
