import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for MSG91's flow API: POST /api/v5/flow/ with the `authkey` header, a DLT
 * `template_id` and `recipients[]` (each `mobiles` plus the template's variables). It answers
 * `{type: "success", message: <request id>}`, or `{type: "error", message}`: for a wrong auth key
 * (401), a missing template id or recipient (400), and, when told, a 429 or a 500.
 */
export interface Msg91Send {
  authkey: string | undefined;
  body: {
    template_id?: string;
    sender?: string;
    short_url?: string;
    unicode?: number;
    recipients?: Record<string, string>[];
  };
  requestId: string | null;
}

export const MSG91_AUTH_KEY = '412345AbCdEfGh0123';

export async function startMsg91Simulator(authKey = MSG91_AUTH_KEY) {
  const sends: Msg91Send[] = [];
  const failures: ('429' | '500')[] = [];
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  const server = createServer(async (req, res) => {
    const text = await readBody(req);
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/api/v5/flow/')
      return answer(404, { type: 'error', message: 'Not found' });
    let body: Msg91Send['body'];
    try {
      body = JSON.parse(text);
    } catch {
      return answer(400, { type: 'error', message: 'Invalid JSON' });
    }
    const send: Msg91Send = { authkey: req.headers.authkey as string | undefined, body, requestId: null };
    sends.push(send);
    if (send.authkey !== authKey) return answer(401, { type: 'error', message: 'Authentication failure', code: '418' });
    if (!body.template_id) return answer(400, { type: 'error', message: 'template_id missing' });
    if (
      !Array.isArray(body.recipients) ||
      body.recipients.length === 0 ||
      !body.recipients.every((r) => /^91[6-9]\d{9}$/.test(r.mobiles ?? ''))
    ) {
      return answer(400, { type: 'error', message: 'Mobile number not found' });
    }
    const failure = failures.shift();
    if (failure === '429') return answer(429, { type: 'error', message: 'Too many requests' });
    if (failure === '500') return answer(500, { type: 'error', message: 'Internal server error' });
    send.requestId = randomBytes(12).toString('hex');
    answer(200, { type: 'success', message: send.requestId });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sends,
    failNext: (...next: ('429' | '500')[]) => failures.push(...next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
