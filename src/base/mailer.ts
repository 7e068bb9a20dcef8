import { createTransport } from 'nodemailer';

export interface Mail {
  from: { name: string; address: string };
  to: string;
  replyTo: string | undefined;
  subject: string;
  text: string;
  html: string;
}

export type SendMail = (mail: Mail) => Promise<void>;

/**
 * Sends through the relay `smtpUrl` names (`smtp://user:pass@host:port`, or `smtps://` for TLS from
 * the first byte; `smtp://` upgrades with STARTTLS when the server offers it). A connection per
 * message: nothing stays open between rounds, so the worker stops without closing anything.
 */
export function smtpMailer(smtpUrl: string, timeoutMs: number): SendMail {
  const transport = createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return async (mail) => {
    await transport.sendMail(mail);
  };
}

/** What an attempt's failure is recorded as: the server's answer when it gave one, never the URL's password. */
export function mailError(error: unknown): string {
  const { response, code, message } = error as { response?: unknown; code?: unknown; message?: unknown };
  if (typeof response === 'string' && response) return response.slice(0, 500);
  const text = typeof message === 'string' ? message : String(error);
  return (typeof code === 'string' ? `${code}: ${text}` : text).slice(0, 500);
}
