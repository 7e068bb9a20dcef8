import { OutboundFailure, requestPinned } from '../../base/outbound/outbound-request.js';
import {
  type OutboundRules,
  OutboundRefused,
  resolveTarget,
  UnresolvedHost,
} from '../../base/outbound/outbound-url.js';
import { ChannelFailure } from './channel.js';

/** A provider's answer: its status and what it said, read as JSON (undefined when it is not). */
export interface ProviderAnswer {
  status: number;
  json: unknown;
}

/** POSTs a JSON body to a provider's URL; throws ChannelFailure when no usable answer comes. */
export type ProviderPost = (
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
) => Promise<ProviderAnswer>;

/**
 * A provider's POST through the outbound guard. An account's own base_url is judged by `rules`
 * (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE) before every send, and the request goes to the
 * address judged; the operator's host (WHATSAPP_BASE_URL, SMS_BASE_URL, or the provider's own) is
 * the operator's choice and goes with OPERATOR_RULES. Either way a redirect is never followed: a
 * 3xx is a refusal like any other, and only the provider's documented error message is kept, cut
 * short (remote-text.ts).
 */
export function providerPost(provider: string, rules: OutboundRules, timeoutMs: number): ProviderPost {
  return async (url, headers, body, signal) => {
    let target: Awaited<ReturnType<typeof resolveTarget>>;
    try {
      target = await resolveTarget(url, rules, 'base_url');
    } catch (error) {
      // A target the rules refuse stays refused until the merchant changes it; a name that does not
      // resolve may yet.
      if (error instanceof OutboundRefused) throw new ChannelFailure(`refused: ${error.message}`, false);
      if (error instanceof UnresolvedHost) throw new ChannelFailure(`${provider}: ${error.message}`, true);
      throw error;
    }
    try {
      const answer = await requestPinned(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body,
        timeoutMs,
        signal,
      });
      if (answer.status >= 300 && answer.status < 400) {
        throw new ChannelFailure(
          `${provider} answered HTTP ${answer.status}, a redirect: redirects are not followed`,
          false,
        );
      }
      let json: unknown;
      try {
        json = answer.complete ? JSON.parse(answer.body) : undefined;
      } catch {
        json = undefined;
      }
      return { status: answer.status, json };
    } catch (error) {
      if (error instanceof OutboundFailure) {
        const words = error.reason === 'timeout' ? 'timed out' : error.message;
        throw new ChannelFailure(`${provider} could not be reached: ${words}`, true);
      }
      throw error;
    }
  };
}

/** A provider's id for a message, when it is one we may keep: printable, without spaces, at most 200 characters. */
export const providerId = (value: unknown): string | undefined =>
  typeof value === 'string' && /^[\x21-\x7e]{1,200}$/.test(value) ? value : undefined;
