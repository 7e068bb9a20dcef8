import { mailError, type SendMail } from '../../base/mailer.js';
import { html } from '../../http/html.js';

/** The relay members' e-mails go through and their sender; absent when SMTP_URL is not set. */
export type MemberMail = { send: SendMail; from: string } | undefined;

/** Sends one member e-mail: what became of it, the relay's words when it refused. */
export async function deliver(
  mail: MemberMail,
  to: string,
  message: { subject: string; text: string; html: string },
): Promise<{ email: 'sent' | 'not_sent' | 'failed'; error?: string }> {
  if (!mail) return { email: 'not_sent' };
  try {
    await mail.send({ from: { name: 'Dakiya', address: mail.from }, to, replyTo: undefined, ...message });
    return { email: 'sent' };
  } catch (error) {
    return { email: 'failed', error: mailError(error) };
  }
}

// The e-mails a member of an account gets from Dakiya itself (not a store's to its buyers).

/** The e-mail that invites someone to an account: who asks, to what role, the link and its end. */
export function invitationMail(invite: {
  accountName: string;
  inviterName: string;
  role: string;
  acceptUrl: string;
  expiresAt: Date;
}): { subject: string; text: string; html: string } {
  const ends = invite.expiresAt.toUTCString();
  const subject = `${invite.inviterName} invites you to ${invite.accountName} on Dakiya`;
  const text = [
    `${invite.inviterName} invites you to ship with ${invite.accountName} on Dakiya, as ${invite.role}.`,
    '',
    `Choose your name and password here: ${invite.acceptUrl}`,
    '',
    `The link works once, until ${ends}. If you did not expect it, ignore this e-mail: nothing happens without you.`,
  ].join('\n');
  const body = html`<p>${invite.inviterName} invites you to ship with <strong>${invite.accountName}</strong> on Dakiya, as ${invite.role}.</p>
<p><a href="${invite.acceptUrl}">Choose your name and password</a></p>
<p>The link works once, until ${ends}. If you did not expect it, ignore this e-mail: nothing happens without you.</p>`;
  return { subject, text, html: body.toString() };
}

/** The e-mail with a link to choose a new password, asked for on the sign-in page. */
export function passwordResetMail(reset: { accountName: string; resetUrl: string; expiresAt: Date }): {
  subject: string;
  text: string;
  html: string;
} {
  const ends = reset.expiresAt.toUTCString();
  const subject = `Choose a new Dakiya password for ${reset.accountName}`;
  const text = [
    `Someone asked to reset your password for ${reset.accountName} on Dakiya.`,
    '',
    `Choose a new one here: ${reset.resetUrl}`,
    '',
    `The link works once, until ${ends}; using it signs you out everywhere. If you did not ask, ignore this e-mail: your password stays as it is.`,
  ].join('\n');
  const body = html`<p>Someone asked to reset your password for <strong>${reset.accountName}</strong> on Dakiya.</p>
<p><a href="${reset.resetUrl}">Choose a new password</a></p>
<p>The link works once, until ${ends}; using it signs you out everywhere. If you did not ask, ignore this e-mail: your password stays as it is.</p>`;
  return { subject, text, html: body.toString() };
}
