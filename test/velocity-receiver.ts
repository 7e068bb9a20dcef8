import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface VelocityEvent {
  event: string;
  event_id: string;
  event_timestamp: string;
  data: Record<string, unknown> & {
    status: string;
    new_tracking?: { tracking_id: string; event_date_time: string; location: string | null; remarks: string | null };
  };
}

/**
 * A merchant's Velocity webhook receiver, written the way Velocity's guide describes one: a real
 * HTTP server on 127.0.0.1 that refuses a request without the expected key (401), parses
 * `event`/`data`, and handles each `event_id` once, dropping repeats. `script` decides how it
 * answers the next requests: 500 (it failed before handling the event), 202 (it queued and
 * handled the event but answered 202, which Velocity does not count as delivered), else 200.
 */
export async function startVelocityReceiver(apiKey: string, header = 'x-api-key', script: (200 | 202 | 500)[] = []) {
  /** Every request as it came. */
  const requests: { headers: IncomingHttpHeaders; body: VelocityEvent; answered: number }[] = [];
  /** The events it handled, once each, in the order handled. */
  const handled: VelocityEvent[] = [];
  const seen = new Set<string>();
  let refused = 0;
  const queue = [...script];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.headers[header] !== apiKey) {
        refused += 1;
        response.writeHead(401).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as VelocityEvent;
      const answer = queue.shift() ?? 200;
      requests.push({ headers: request.headers, body, answered: answer });
      if (answer !== 500 && !seen.has(body.event_id)) {
        seen.add(body.event_id);
        handled.push(body);
      }
      response.writeHead(answer, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/velocity/webhook`,
    requests,
    handled,
    refused: () => refused,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
