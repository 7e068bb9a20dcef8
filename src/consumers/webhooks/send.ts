import { Webhook } from 'standardwebhooks';
import { OutboundFailure, type PinnedAgents, requestPinned } from '../../base/outbound/outbound-request.js';
import {
  type OutboundRules,
  OutboundRefused,
  type PinnedTarget,
  resolveTarget,
  UnresolvedHost,
} from '../../base/outbound/outbound-url.js';
import type { StoredEvent } from '../../events/events.repository.js';
import { eventView } from '../../readers/event-feed/event-feed.service.js';
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

/** The longest a receiver's answer is read for; only its status matters. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * One attempt of a delivery: the endpoint's URL goes through the outbound guard again (a host that
 * now resolves to a refused address is refused without a request), then the message is POSTed to
 * the address checked. TLS still verifies the URL's host name, redirects are answers (a 3xx is a
 * failure, never followed), and the whole exchange must end within `timeoutMs`.
 */
export async function attemptDelivery(
  url: string,
  message: Message,
  at: Date,
  options: {
    rules: OutboundRules;
    timeoutMs: number;
    signal: AbortSignal;
    userAgent: string;
    agents?: PinnedAgents;
  },
): Promise<SendResult> {
  let target: PinnedTarget;
  try {
    target = await resolveTarget(url, options.rules);
  } catch (error) {
    if (error instanceof OutboundRefused)
      return { statusCode: null, durationMs: 0, error: `refused: ${error.message}` };
    if (error instanceof UnresolvedHost) return { statusCode: null, durationMs: 0, error: error.message };
    throw error;
  }
  const body = message.body;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const answer = await requestPinned(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': options.userAgent, ...message.headers(at) },
      body,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      agent: options.agents?.for(target),
      maxAnswerBytes: MAX_ANSWER_BYTES,
    });
    const delivered = message.delivered(answer.status);
    return { statusCode: answer.status, durationMs: elapsed(), error: delivered ? null : `HTTP ${answer.status}` };
  } catch (error) {
    if (!(error instanceof OutboundFailure)) throw error;
    return {
      statusCode: null,
      durationMs: elapsed(),
      error: error.reason === 'stopped' ? 'worker stopped' : error.message,
    };
  }
}
