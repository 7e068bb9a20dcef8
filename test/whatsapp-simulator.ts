import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the WhatsApp Business Cloud API's send endpoint, in its documented shapes:
 * POST /{version}/{phone number id}/messages with a bearer token; a template message answers
 * `{messaging_product, contacts: [{input, wa_id}], messages: [{id: "wamid…"}]}`, a refusal
 * `{error: {message, type, code, error_subcode?, fbtrace_id}}`. It can be told to refuse the next
 * sends (429 with code 130429, a 500, 131056 pair rate limit) and builds the signed inbound
 * webhooks Meta POSTs when a buyer taps a button.
 */
export interface WhatsAppSend {
  version: string;
  phoneNumberId: string;
  authorization: string | undefined;
  body: {
    messaging_product: string;
    to: string;
    type: string;
    template: {
      name: string;
      language: { code: string };
      components: { type: string; sub_type?: string; index?: string; parameters: Record<string, string>[] }[];
    };
  };
  messageId: string | null;
  /** Where each URL button of a registered template leads for this message, by button index. */
  buttonUrls: Record<string, string>;
}

/** A button of a template as registered with Meta: a quick reply, or a URL whose dynamic part is a trailing {{1}}. */
export type TemplateButton = { type: 'quick_reply' } | { type: 'url'; url: string };
type Component = WhatsAppSend['body']['template']['components'][number];

const nonEmpty = (value: unknown) => typeof value === 'string' && value.length > 0;

/**
 * What is wrong with a template's components, in Meta's documented send shape: body parameters are
 * `{type: text, text}`; a button component has a sub_type, a one-digit index of its own and one
 * parameter, `{type: payload, payload}` for a quick reply and `{type: text, text}` (the URL's
 * dynamic suffix) for a URL button. For a template registered here, each button sent must be one of
 * its buttons by index and kind, and each dynamic URL button must be sent.
 */
function componentProblem(components: Component[], buttons: TemplateButton[] | undefined): string | null {
  const seen = new Set<string>();
  for (const component of components) {
    const parameters = component.parameters;
    if (!Array.isArray(parameters)) return `${component.type}: parameters must be an array`;
    if (component.type === 'body' || component.type === 'header') {
      if (!parameters.every((p) => p.type === 'text' && nonEmpty(p.text)))
        return `${component.type}: each parameter must be {type: text, text}`;
      continue;
    }
    if (component.type !== 'button') return `unknown component type ${component.type}`;
    if (!/^[0-9]$/.test(component.index ?? '') || seen.has(component.index!))
      return `button: index must be a digit of its own, not ${component.index}`;
    seen.add(component.index!);
    const [parameter, ...rest] = parameters;
    if (!parameter || rest.length > 0) return `button ${component.index}: exactly one parameter`;
    if (component.sub_type === 'quick_reply') {
      if (parameter.type !== 'payload' || !nonEmpty(parameter.payload))
        return `button ${component.index}: a quick reply's parameter is {type: payload, payload}`;
    } else if (component.sub_type === 'url') {
      if (parameter.type !== 'text' || !nonEmpty(parameter.text))
        return `button ${component.index}: a URL button's parameter is {type: text, text}`;
    } else return `button ${component.index}: unknown sub_type ${component.sub_type}`;
    const registered = buttons?.[Number(component.index)];
    if (
      buttons &&
      (!registered ||
        registered.type !== component.sub_type ||
        (registered.type === 'url' && !registered.url.endsWith('{{1}}')))
    ) {
      return `button ${component.index}: the template has no such ${component.sub_type} button`;
    }
  }
  const missing =
    buttons?.findIndex((b, i) => b.type === 'url' && b.url.endsWith('{{1}}') && !seen.has(String(i))) ?? -1;
  return missing >= 0 ? `button ${missing}: the template's URL needs its {{1}}` : null;
}

export type WhatsAppFailure = '429' | '500' | 'pair-limit' | 'bad-template';

export const WA_TOKEN = 'EAAG-sim-token-8c1f2e';
export const WA_PHONE_NUMBER_ID = '106540352242922';
export const WA_APP_SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

const FAILURES: Record<WhatsAppFailure, { status: number; error: Record<string, unknown> }> = {
  '429': {
    status: 429,
    error: { message: '(#130429) Rate limit hit', type: 'OAuthException', code: 130429, error_subcode: 2494055 },
  },
  '500': {
    status: 500,
    error: { message: 'An unknown error has occurred.', type: 'OAuthException', code: 1, is_transient: true },
  },
  'pair-limit': {
    status: 400,
    error: {
      message: '(#131056) (Business Account, Consumer Account) pair rate limit hit',
      type: 'OAuthException',
      code: 131056,
    },
  },
  'bad-template': {
    status: 404,
    error: {
      message: '(#132001) Template name does not exist in the translation',
      type: 'OAuthException',
      code: 132001,
    },
  },
};

export async function startWhatsAppSimulator(token = WA_TOKEN) {
  const sends: WhatsAppSend[] = [];
  const failures: WhatsAppFailure[] = [];
  const templates = new Map<string, TemplateButton[]>();
  const reply = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  const fbtrace = () => randomBytes(8).toString('base64url');

  const server = createServer(async (req, res) => {
    const text = await readBody(req);
    const match = /^\/(v\d+\.\d+)\/(\d+)\/messages$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match)
      return reply(res, 404, {
        error: { message: 'Unknown path components', type: 'OAuthException', code: 2500, fbtrace_id: fbtrace() },
      });
    let body: WhatsAppSend['body'];
    try {
      body = JSON.parse(text);
    } catch {
      return reply(res, 400, {
        error: { message: 'Invalid JSON', type: 'OAuthException', code: 100, fbtrace_id: fbtrace() },
      });
    }
    const send: WhatsAppSend = {
      version: match[1]!,
      phoneNumberId: match[2]!,
      authorization: req.headers.authorization,
      body,
      messageId: null,
      buttonUrls: {},
    };
    sends.push(send);
    if (req.headers.authorization !== `Bearer ${token}`) {
      return reply(res, 401, {
        error: {
          message: 'Invalid OAuth access token - Cannot parse access token',
          type: 'OAuthException',
          code: 190,
          fbtrace_id: fbtrace(),
        },
      });
    }
    if (
      body.messaging_product !== 'whatsapp' ||
      body.type !== 'template' ||
      !/^\d{12}$/.test(body.to) ||
      !body.template?.name
    ) {
      return reply(res, 400, {
        error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100, fbtrace_id: fbtrace() },
      });
    }
    const buttons = templates.get(body.template.name);
    const problem = componentProblem(body.template.components ?? [], buttons);
    if (problem) {
      const code = problem.includes('the template') ? 132000 : 131009;
      const message =
        code === 132000
          ? '(#132000) Number of parameters does not match the expected number of params'
          : '(#131009) Parameter value is not valid';
      return reply(res, 400, {
        error: {
          message,
          type: 'OAuthException',
          code,
          error_data: { messaging_product: 'whatsapp', details: problem },
          fbtrace_id: fbtrace(),
        },
      });
    }
    for (const component of body.template.components ?? []) {
      const registered = buttons?.[Number(component.index)];
      if (component.sub_type === 'url' && registered?.type === 'url')
        send.buttonUrls[component.index!] = registered.url.replace('{{1}}', component.parameters[0]!.text!);
    }
    const failure = failures.shift();
    if (failure)
      return reply(res, FAILURES[failure].status, { error: { ...FAILURES[failure].error, fbtrace_id: fbtrace() } });
    send.messageId = `wamid.${randomBytes(18).toString('base64url')}`;
    reply(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id: send.messageId }],
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sends,
    /** The next sends are refused this way, in order. */
    failNext: (...next: WhatsAppFailure[]) => failures.push(...next),
    /** Registers a template's buttons, as the merchant does in WhatsApp Manager: its sends are checked against them. */
    registerTemplate: (name: string, buttons: TemplateButton[]) => templates.set(name, buttons),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type WhatsAppSimulator = Awaited<ReturnType<typeof startWhatsAppSimulator>>;

/** The body Meta POSTs when the buyer at `from` taps a quick-reply button with `payload` on message `contextId`. */
export function buttonReplyWebhook(from: string, payload: string, text: string, contextId = 'wamid.context') {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: WA_PHONE_NUMBER_ID },
              contacts: [{ profile: { name: 'Priya' }, wa_id: from }],
              messages: [
                {
                  context: { from: '15550783881', id: contextId },
                  from,
                  id: `wamid.${randomBytes(12).toString('base64url')}`,
                  timestamp: '1763620000',
                  type: 'button',
                  button: { payload, text },
                },
              ],
            },
          },
        ],
      },
    ],
  });
}

/** X-Hub-Signature-256 for a body, as Meta signs it with the app secret. */
export const hubSignature = (body: string, secret = WA_APP_SECRET) =>
  `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
