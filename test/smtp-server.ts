import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** RCPT TO, as the client gave them. */
  to: string[];
  mail: ParsedMail;
}

export const SMTP_USER = 'dakiya';
export const SMTP_PASSWORD = 'smtp-test-password';

/**
 * A real SMTP server on 127.0.0.1 (ephemeral port) that needs a login, keeps every message it
 * accepts, parsed, and refuses the next messages with the status codes given to `refuse`.
 */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const refusals: number[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    // Plain-text AUTH is fine on loopback; a real relay would offer STARTTLS.
    allowInsecureAuth: true,
    closeTimeout: 100,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const code = refusals.shift();
        if (code !== undefined) {
          callback(
            Object.assign(new Error(code >= 500 ? '5.7.1 Message rejected for the test' : '4.7.1 Try again later'), {
              responseCode: code,
            }),
          );
          return;
        }
        simpleParser(Buffer.concat(chunks)).then(
          (mail) => {
            received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
            callback(null);
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    received,
    /** The messages to this address. */
    to: (address: string) => received.filter((r) => r.to.includes(address)),
    /** Refuses the next messages, one per code (4xx or 5xx), at the end of DATA. */
    refuse(...codes: number[]) {
      refusals.push(...codes);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;
