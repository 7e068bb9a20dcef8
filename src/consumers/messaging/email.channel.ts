import { smtpMailer } from '../../base/mailer.js';
import { ChannelFailure, type SendMessage } from './channel.js';
import { addressMail, confirmationMail, ndrMail } from './message-text.js';

/**
 * E-mail through the server's relay (SMTP_URL, MAIL_FROM), as customer notifications go, from the
 * store's brand name. Every SMTP failure is retried: a relay's refusals are mostly passing.
 */
export function emailSender(smtpUrl: string, mailFrom: string, timeoutMs: number): SendMessage {
  const send = smtpMailer(smtpUrl, timeoutMs);
  return async (message) => {
    // Never planned (channel-config's templateOf): a return's e-mails are the store's notifications.
    if (message.purpose === 'return_update')
      throw new ChannelFailure("a return request's e-mails go by the store's notifications", false);
    const content =
      message.purpose === 'ndr'
        ? ndrMail(message.language, message.variables)
        : message.purpose === 'address_update'
          ? addressMail(message.language, message.variables)
          : confirmationMail(message.language, message.variables);
    try {
      await send({
        from: { name: message.variables.brand, address: mailFrom },
        to: message.to,
        replyTo: undefined,
        ...content,
      });
    } catch (error) {
      throw new ChannelFailure(`SMTP: ${(error as Error).message}`.slice(0, 500), true);
    }
    return { providerMessageId: null };
  };
}
