import type http from 'node:http';
import { OutboundFailure, type PinnedAgents, requestPinned } from '../base/outbound/outbound-request.js';
import { OutboundRefused, type OutboundRules, resolveTarget, UnresolvedHost } from '../base/outbound/outbound-url.js';
import { ChannelCallError } from './channel-adapter.js';

// A store's URL is the merchant's to give (a shop domain, a WordPress site), so every call to it goes
// through the one outbound guard, as webhooks do: judged before each request, connected to the
// address judged, never a redirect followed.

export interface ChannelRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  /** Sent as application/json. */
  json?: unknown;
}

export interface ChannelAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One call to a store: its answer whatever the status, or a ChannelCallError when none came. */
export type ChannelHttp = (request: ChannelRequest) => Promise<ChannelAnswer>;

/** A store's answer may be a whole page of orders: far more than a webhook receiver's status. */
const MAX_STORE_ANSWER_BYTES = 8 * 1024 * 1024;

export function createChannelHttp({
  rules,
  timeoutMs,
  agents,
}: {
  rules: OutboundRules;
  timeoutMs: number;
  agents?: PinnedAgents;
}): ChannelHttp {
  return async function call(request) {
    let target: Awaited<ReturnType<typeof resolveTarget>>;
    try {
      target = await resolveTarget(request.url, rules, 'store URL');
    } catch (error) {
      if (error instanceof OutboundRefused) throw new ChannelCallError('rejected', error.message);
      if (error instanceof UnresolvedHost) throw new ChannelCallError('unresolved', error.message);
      throw error;
    }
    const body = request.json === undefined ? undefined : JSON.stringify(request.json);
    try {
      const answer = await requestPinned(target, {
        method: request.method,
        headers: {
          accept: 'application/json',
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...request.headers,
        },
        body,
        timeoutMs,
        agent: agents?.for(target),
        maxAnswerBytes: MAX_STORE_ANSWER_BYTES,
      });
      if (!answer.complete) throw new ChannelCallError('malformed', `${target.url.host} sent an answer cut short`);
      return { status: answer.status, headers: answer.headers, body: answer.body };
    } catch (error) {
      if (error instanceof OutboundFailure)
        throw new ChannelCallError('unavailable', `${target.url.host}: ${error.message}`);
      throw error;
    }
  };
}

/** The answer's JSON, or a ChannelCallError('malformed') naming the store. */
export function jsonOf(answer: ChannelAnswer, store: string): unknown {
  try {
    return JSON.parse(answer.body);
  } catch {
    throw new ChannelCallError('malformed', `${store} answered ${answer.status} with a body that is not JSON`);
  }
}
