import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { StoredEvent } from '../../events/events.repository.js';
import { eventView } from '../../readers/event-feed/event-feed.service.js';
import type { ResolvedTarget } from './url-safety.js';
import { velocityBody, velocityDelivered, velocityHeaders } from './velocity-format.js';

export interface SendResult {
  /** The receiver's status code, or null when no answer came (refused, reset, timed out). */
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed, or null on a 2xx. */
  error: string | null;
}

/** The Standard Webhooks headers for one message, signed by the `standardwebhooks` package. */
export function signedHeaders(secret: string, messageId: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, body),
  };
}

/** What one delivery POSTs, in its endpoint's format, and which answers count as delivered. */
export interface Message {
  body: string;
  /** The headers of one attempt (a signature is dated by its attempt). */
  headers(at: Date): Record<string, string>;
  delivered(status: number): boolean;
}

const isSuccess = (status: number) => status >= 200 && status < 300;

export function deliveryMessage(
  endpoint: { format: string; secret: string; apiKey: string | null; apiKeyHeader: string | null },
  event: StoredEvent,
): Message {
  if (endpoint.format === 'velocity') {
    const headers = velocityHeaders(endpoint);
    return { body: JSON.stringify(velocityBody(event)), headers: () => headers, delivered: velocityDelivered };
  }
  const body = JSON.stringify(eventView(event));
  return { body, headers: (at) => signedHeaders(endpoint.secret, event.id, at, body), delivered: isSuccess };
}

/**
 * Kept-alive connections, one agent per receiver and checked address: consecutive deliveries to an
 * endpoint reuse its connection instead of opening (and, for https, negotiating) one each. An agent
 * never holds more sockets than the worker sends at once to that receiver (the send slots), and
 * closes a socket left idle.
 */
export class Agents {
  private readonly byKey = new Map<string, http.Agent>();
  private readonly idleMs: number;

  constructor(idleMs = 30_000) {
    this.idleMs = idleMs;
  }

  for(target: ResolvedTarget): http.Agent {
    const [pinned] = target.addresses;
    const key = `${target.url.protocol}//${target.url.host}|${pinned!.address}`;
    let agent = this.byKey.get(key);
    if (!agent) {
      const options = { keepAlive: true, timeout: this.idleMs, scheduling: 'lifo' as const };
      agent = target.url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.byKey.set(key, agent);
    }
    return agent;
  }

  /** Closes every kept connection (the worker stopped). */
  close(): void {
    for (const agent of this.byKey.values()) agent.destroy();
    this.byKey.clear();
  }
}

/** The longest a receiver's answer is read for; only its status matters. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs one signed message. The connection goes to an address `resolveTarget` already checked
 * (the lookup is pinned to it), TLS still verifies the URL's host name, redirects are answers
 * (a 3xx is a failure, never followed), and the whole exchange must end within `timeoutMs`.
 */
export function send(
  target: ResolvedTarget,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; signal: AbortSignal; userAgent: string; delivered?: (status: number) => boolean; agents?: Agents },
): Promise<SendResult> {
  const delivered = options.delivered ?? isSuccess;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const [pinned] = target.addresses;
  const lookup: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: pinned!.address, family: pinned!.family }]);
    else callback(null, pinned!.address, pinned!.family);
  };
  const transport = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    // An answer read to its end leaves the connection to its agent for the next delivery; any
    // other ending (timeout, reset, an answer too long) closes it.
    const finish = (statusCode: number | null, error: string | null, reusable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!reusable || !options.agents) request.destroy();
      resolve({ statusCode, durationMs: elapsed(), error });
    };
    const request = transport.request(
      target.url,
      {
        method: 'POST',
        lookup,
        agent: options.agents?.for(target) ?? false,
        signal: options.signal,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': options.userAgent,
          ...headers,
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        const done = () => finish(status, delivered(status) ? null : `HTTP ${status}`);
        response.on('end', () => finish(status, delivered(status) ? null : `HTTP ${status}`, true));
        response.on('close', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => finish(null, `no answer within ${options.timeoutMs / 1000} s`), options.timeoutMs);
    request.on('error', (error) => finish(null, options.signal.aborted ? 'worker stopped' : error.message));
    request.end(body);
  });
}
