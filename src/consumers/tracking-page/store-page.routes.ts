import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../../base/db/client.js';
import { normalizeIndianPhone } from '../../domain/geo/phone.js';
import { chooseLanguage } from '../../domain/shipment/page-text.js';
import { storeTrackPath } from '../../domain/shipment/track-links.js';
import { EXAMPLE } from '../../http/examples.js';
import { logoPath } from '../../tenancy/stores/logo.js';
import { htmlResponse, PAGE_HEADERS } from './page-http.js';
import { type StoreField, type StorePageLanguage, type StorePageState, storePage } from './store-page.html.js';
import * as repo from './store-page.repository.js';
import { notFoundPage } from './tracking-page.html.js';
import { HtmlPage } from './tracking-page.schemas.js';
import { UUID } from '../../base/uuid.js';

// No format on the id: a malformed one gets the same "not found" page as an unknown store.
const StoreParams = Type.Object({
  store_id: Type.String({ description: "The store's id (tracking_page_url names it).", examples: [EXAMPLE.storeId] }),
});
// Long enough that the page's own checks name a field that is too long, rather than the schema.
const Field = (description: string) => Type.Optional(Type.String({ maxLength: 2000, description }));
const StorePageQuery = Type.Object({
  lang: Type.Optional(
    Type.String({
      maxLength: 16,
      description: '`en` or `hi`; otherwise Hindi when the browser ranks it first, else English.',
      examples: ['hi'],
    }),
  ),
  awb: Field('The AWB to find (the first form).'),
  order_id: Field("The merchant's order id to find, with `phone` (the second form)."),
  phone: Field("The order's shipping or billing phone number, in full: 10 digits, +91 or 0 before them allowed."),
});

const AWB = /^[A-Za-z0-9-]{1,40}$/;
// One line: no control characters (PostgreSQL refuses NUL in text), at most 100 characters.
const ORDER_ID = /^[^\p{Cc}]{1,100}$/u;

type Lookup = { by: 'awb'; awb: string } | { by: 'order'; orderId: string; phone: string };

/** The submitted form's values, checked: what to look up, or each refused field. */
function readForm(query: { awb?: string; order_id?: string; phone?: string }): {
  lookup?: Lookup;
  problems: StorePageState['problems'];
} {
  if (query.awb !== undefined) {
    const awb = query.awb.trim();
    if (!awb) return { problems: [{ field: 'awb', problem: 'required' }] };
    return AWB.test(awb)
      ? { lookup: { by: 'awb', awb }, problems: [] }
      : { problems: [{ field: 'awb', problem: 'awb_invalid' }] };
  }
  const orderId = query.order_id?.trim() ?? '';
  const phone = query.phone?.trim() ?? '';
  const problems: StorePageState['problems'] = [];
  if (!orderId) problems.push({ field: 'order_id', problem: 'required' });
  else if (!ORDER_ID.test(orderId)) problems.push({ field: 'order_id', problem: 'order_invalid' });
  const digits = phone && normalizeIndianPhone(phone);
  if (!phone) problems.push({ field: 'phone', problem: 'required' });
  else if (!digits) problems.push({ field: 'phone', problem: 'phone_invalid' });
  return problems.length > 0 || !digits ? { problems } : { lookup: { by: 'order', orderId, phone: digits }, problems };
}

/**
 * The store's tracking page (decision "The store's tracking page"): its brand, and a form that
 * takes a buyer to a shipment's own page (/t/<token>) when the AWB, or the order id and the order's
 * phone number, name a booked shipment of this store. A GET form: it changes nothing, so there is
 * nothing to forge, and a link with ?awb= can be bookmarked or put in a store's own messages.
 * Registered beside the /t/ routes, under their rate limit per client address.
 */
export function storePageRoutes(db: Db): FastifyPluginAsyncTypebox {
  return async (app) => {
    /** `?lang` when it is en or hi, else Hindi when the browser ranks it first, else English. */
    const languageOf = (request: FastifyRequest): { language: StorePageLanguage; chosen: StorePageLanguage | null } => {
      const asked = (request.query as { lang?: string }).lang;
      const chosen = asked === 'en' || asked === 'hi' ? asked : null;
      return {
        language: chosen ?? (chooseLanguage(undefined, request.headers['accept-language']) === 'hi' ? 'hi' : 'en'),
        chosen,
      };
    };

    app.get(
      '/track/:store_id',
      {
        schema: {
          tags: ['Tracking page'],
          summary: "A store's tracking page (HTML, public)",
          description:
            "The store's brand and logo, and two forms: an AWB, or an order id with the phone number on the order. When they name " +
            "a booked shipment of this store, a 303 to that shipment's tracking page (/t/<token>); otherwise 404, the same whether " +
            'the AWB exists in another store or account or nowhere. Refused fields are named beside them (400). English or Hindi. ' +
            "404 for an unknown or disconnected store. The address is the store answer's `tracking_page_url`.",
          security: [],
          params: StoreParams,
          querystring: StorePageQuery,
          response: {
            200: htmlResponse('The page and its forms.'),
            303: {
              type: 'null',
              description:
                "Found: `Location` is the shipment's tracking page, /t/<token> (with `?lang` when one was chosen).",
            },
            400: {
              description:
                'The page again, naming each refused field beside it; a query refused before the page is read (a value over ' +
                '2,000 characters, one sent twice or holding a NUL) is the JSON error body.',
              content: { 'text/html': { schema: HtmlPage }, 'application/json': { schema: Type.Ref('ErrorBody') } },
            },
            404: {
              description:
                'No shipment of this store has these details, or no connected store has this id: an HTML page.',
              content: { 'text/html': { schema: HtmlPage }, 'application/json': { schema: Type.Ref('ErrorBody') } },
            },
          },
        },
      },
      async (request, reply) => {
        const { language, chosen } = languageOf(request);
        const store = UUID.test(request.params.store_id)
          ? await repo.findConnectedStore(db, request.params.store_id)
          : undefined;
        if (!store) return reply.status(404).headers(PAGE_HEADERS).send(notFoundPage(language));
        const self = storeTrackPath(store.id);
        const view = {
          brand: store.brandName ?? store.accountName,
          logoPath: store.logoSha256 ? logoPath(store.id, store.logoSha256) : null,
          supportEmail: store.supportEmail,
          supportPhone: store.supportPhone,
        };
        const paths = { action: self, other: `${self}?lang=${language === 'en' ? 'hi' : 'en'}`, lang: chosen };
        const { awb, order_id, phone } = request.query;
        const values: Partial<Record<StoreField, string>> = { awb, order_id, phone };
        const send = (status: 200 | 400 | 404, state: Omit<StorePageState, 'values'>) =>
          reply
            .status(status)
            .headers(PAGE_HEADERS)
            .send(storePage(language, view, paths, { ...state, values }));
        if (awb === undefined && order_id === undefined && phone === undefined)
          return send(200, { problems: [], notFound: false });

        const { lookup, problems } = readForm(request.query);
        if (!lookup) return send(400, { problems, notFound: false });
        const token =
          lookup.by === 'awb'
            ? await repo.findTokenByAwb(db, store, lookup.awb)
            : await tokenOfOrder(store, lookup.orderId, lookup.phone);
        if (!token) return send(404, { problems: [], notFound: true });
        return reply
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'same-origin')
          .redirect(`/t/${token}${chosen ? `?lang=${chosen}` : ''}`, 303);
      },
    );

    /** The order's page only when the phone given is the order's shipping or billing phone. */
    async function tokenOfOrder(store: repo.PublicStore, orderId: string, phone: string): Promise<string | undefined> {
      const order = await repo.findBookedOrder(db, store, orderId);
      if (!order) return undefined;
      const phones = [order.shippingPhone, order.billingPhone].map((p) => normalizeIndianPhone(p));
      return phones.includes(phone) ? order.token : undefined;
    }
  };
}
