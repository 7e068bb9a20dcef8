import { checkAll, invalid } from '../../domain/errors.js';
import { EVENT_TYPES } from '../../domain/shipment/event-types.js';
import { VELOCITY_WEBHOOK_EVENTS, type WebhookFormat } from './velocity-webhooks.js';
import { DEFAULT_API_KEY_HEADER } from './velocity-format.js';

/**
 * Headers a merchant may not put the key in: the ones the connection, the body or Dakiya itself
 * set (a key there would break the request or be overwritten), and hop-by-hop ones a proxy drops.
 */
const RESERVED_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'user-agent',
]);

const VOCABULARY: Record<WebhookFormat, readonly string[]> = {
  standard: EVENT_TYPES,
  velocity: VELOCITY_WEBHOOK_EVENTS,
};

/** The key as answers show it: its last 4 characters, never the whole. */
export const maskKey = (key: string) => `****${key.length >= 12 ? key.slice(-4) : ''}`;

interface FormatInput {
  events?: string[];
  format?: WebhookFormat;
  api_key?: string;
  api_key_header?: string;
}

interface Current {
  format: string;
  events: string[];
  apiKey: string | null;
  apiKeyHeader: string | null;
}

/**
 * The endpoint's format, subscriptions and key after a create (no `current`) or a partial update,
 * checked together: every problem is one 400 naming its field. Events are in the format's own
 * vocabulary; the velocity format needs a key (it is unsigned: the key is all a receiver can check),
 * the standard one takes none. Switching to standard forgets the key.
 */
export function formatSettings(input: FormatInput, current: Current | undefined) {
  const format = input.format ?? (current?.format as WebhookFormat | undefined) ?? 'standard';
  const problems = checkAll();
  const refuse = (message: string, field: string) =>
    problems.check(() => {
      throw invalid(message, field);
    });
  const events = problems.check(() => {
    const list = input.events ?? current!.events;
    if (list.includes('*') && list.length > 1)
      throw invalid('events must be ["*"] alone or a list of event types', 'events');
    const foreign = list.filter((e) => e !== '*' && !VOCABULARY[format].includes(e));
    if (foreign.length > 0) {
      const hint = input.events === undefined ? ' (send events for the new format)' : '';
      throw invalid(
        `events for format ${format} must be "*" or among ${VOCABULARY[format].join(', ')}; not ${foreign.join(', ')}${hint}`,
        'events',
      );
    }
    return [...new Set(list)];
  });
  let apiKey: string | null = null;
  let apiKeyHeader: string | null = null;
  if (format === 'velocity') {
    apiKey = input.api_key ?? current?.apiKey ?? null;
    if (apiKey === null)
      refuse('api_key is required with format velocity: receivers check it, as the body is unsigned', 'api_key');
    apiKeyHeader = (input.api_key_header ?? current?.apiKeyHeader ?? DEFAULT_API_KEY_HEADER).toLowerCase();
    if (
      RESERVED_HEADERS.has(apiKeyHeader) ||
      apiKeyHeader.startsWith('content-') ||
      apiKeyHeader.startsWith('webhook-')
    ) {
      refuse(
        `api_key_header must not be ${apiKeyHeader}: Host, Content-*, Webhook-*, User-Agent and hop-by-hop headers are set by the connection`,
        'api_key_header',
      );
    }
  } else {
    for (const field of ['api_key', 'api_key_header'] as const) {
      if (input[field] !== undefined)
        refuse(`${field} belongs to format velocity; this endpoint is standard (signed)`, field);
    }
  }
  problems.done();
  return { format, events: events!, apiKey, apiKeyHeader };
}
