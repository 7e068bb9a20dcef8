import { html } from '../../http/html.js';

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
