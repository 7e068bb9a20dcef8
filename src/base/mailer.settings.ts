import { text, url } from './setting-kinds.js';
import { defineSettings, type SettingsOf } from './settings.js';

const MAIL_ADDRESS = /^[^\s@<>"(),;:]+@[^\s@<>"(),;:]+$/;

/** The SMTP relay customer e-mails and buyer messages by e-mail go through, and their sender. */
export const mailSettings = defineSettings(
  {
    smtpUrl: url('SMTP_URL', {
      doc: 'the SMTP server customer e-mails and invitations to members go through: `smtp://user:pass@host:587` (upgraded with STARTTLS when the server offers it) or `smtps://user:pass@host:465` (TLS from the start); percent-encode `@`, `:` or `/` in the password. Without it nothing is sent: each e-mail is composed and kept in the outbox, read at `GET /custom/api/v1/shipments/:id/emails` (start-up logs this). Never logged',
      protocols: ['smtp:', 'smtps:'],
      secret: true,
    }),
    mailFrom: text('MAIL_FROM', {
      doc: "the address customer e-mails come from (`updates@ship.example.in`); required with `SMTP_URL`. The name shown beside it is the store's brand",
      range: 'a bare e-mail address',
      check: (from) =>
        MAIL_ADDRESS.test(from)
          ? undefined
          : `MAIL_FROM must be a bare e-mail address (the name shown is the store's brand), got "${from}"`,
    }),
  },
  (values, report) => {
    if (values.smtpUrl !== undefined && !report.given('mailFrom')) {
      report.problem('SMTP_URL is set but MAIL_FROM is not: set MAIL_FROM to the address customer e-mails come from');
    }
    return values;
  },
);

export type MailSettings = SettingsOf<typeof mailSettings>;
