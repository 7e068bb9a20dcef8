import { describe, expect, it } from 'vitest';
import { withConnectors } from './couriers/with-connectors.js';
import { loadRatesContext } from './data-files.js';
import { startupNotes } from './startup-notes.js';

const shipped = loadRatesContext().catalogue;
const base = { server: { publicBaseUrl: 'http://127.0.0.1:3000' }, couriers: { catalogueFile: undefined } };

describe('start-up notes', () => {
  it('without SMTP_URL says where the e-mails go; with the shipped catalogue says every service books test shipments and how to connect one', () => {
    expect(startupNotes({ ...base, mail: { smtpUrl: undefined } }, shipped)).toEqual([
      'SMTP_URL is not set: customer e-mails are not sent but kept in the outbox; read them at GET http://127.0.0.1:3000/custom/api/v1/shipments/{shipment_id or AWB}/emails (set SMTP_URL and MAIL_FROM to send them)',
      '13 of 13 courier services book test shipments (13 on the sandbox connector, 0 on push without an allotted awb_series): no courier issued their AWBs or will collect their parcels. To connect a real courier, edit data/couriers.json (docs/couriers.md#connectors)',
    ]);
  });

  it('says nothing with SMTP_URL set and every service on a courier that issues its own AWBs', () => {
    const real = withConnectors(loadRatesContext(), () => 'delhivery').catalogue;
    expect(startupNotes({ ...base, mail: { smtpUrl: 'smtp://mail.example:587' } }, real)).toEqual([]);
  });
});
