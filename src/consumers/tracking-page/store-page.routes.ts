import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../../base/db/client.js';
import { UUID } from '../../base/uuid.js';
import { normalizeIndianPhone } from '../../domain/geo/phone.js';
import { chooseLanguage, type Language } from '../../domain/buyer-copy/page-text.js';
import { storeTrackPath } from '../../domain/shipment/track-links.js';
import { EXAMPLE } from '../../http/examples.js';
import { logoPath } from '../../tenancy/stores/logo.js';
import { awbPage } from './awb-page.html.js';
import { htmlResponse, PAGE_HEADERS, rememberLanguage, requestLanguage } from './page-http.js';
import { type StoreField, type StorePageState, storePage } from './store-page.html.js';
import * as repo from './store-page.repository.js';
import { notFoundPage } from './tracking-page.html.js';
import { HtmlPage } from './tracking-page.schemas.js';
import type { TrackingPageService } from './tracking-page.service.js';

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
      description:
        '`en`, `hi`, `mr`, `bn`, `gu`, `ta`, `te`, `kn` or `ml`; it wins and is remembered (the `dakiya_lang` cookie, a year). ' +
        "Without it: the language last picked, else the store's (or, for an AWB, its order's) `language`, else the browser's " +
        "Accept-Language among these, else (for an AWB) its shipping state's, else English.",
      examples: ['hi'],
    }),
  ),
  awb: Field('The AWB to find (the first form): its status and journey, read-only.'),
  order_id: Field("The merchant's order id to find, with `phone` (the second form)."),
  phone: Field(
    "The order's shipping or billing phone number, in full: 10 digits, +91 or 0 before them allowed. With `order_id`, or " +
      "with `awb` (the AWB's page asks for it), it opens the buyer's own page.",
  ),
});

const AWB = /^[A-Za-z0-9-]{1,40}$/;
// One line: no control characters (PostgreSQL refuses NUL in text), at most 100 characters.
const ORDER_ID = /^[^\p{Cc}]{1,100}$/u;

type Lookup = { by: 'awb'; awb: string; phone?: string } | { by: 'order'; orderId: string; phone: string };
type Problems = StorePageState['problems'];

/** The phone as given: its 10 digits, or the problem with it. */
function readPhone(given: string | undefined): { digits?: string; problem?: Problems[number] } {
  const phone = given?.trim() ?? '';
  if (!phone) return { problem: { field: 'phone', problem: 'required' } };
  const digits = normalizeIndianPhone(phone);
  return digits ? { digits } : { problem: { field: 'phone', problem: 'phone_invalid' } };
}

/** The submitted form's values, checked: what to look up, or each refused field. */
function readForm(query: { awb?: string; order_id?: string; phone?: string }): {
  lookup?: Lookup;
  problems: Problems;
  /** A well-formed AWB whose phone was refused: its page shows the problem. */
  awb?: string;
} {
  if (query.awb !== undefined) {
    const awb = query.awb.trim();
    if (!awb) return { problems: [{ field: 'awb', problem: 'required' }] };
    if (!AWB.test(awb)) return { problems: [{ field: 'awb', problem: 'awb_invalid' }] };
    if (query.phone === undefined) return { lookup: { by: 'awb', awb }, problems: [] };
    const { digits, problem } = readPhone(query.phone);
    return digits ? { lookup: { by: 'awb', awb, phone: digits }, problems: [] } : { awb, problems: [problem!] };
  }
  const orderId = query.order_id?.trim() ?? '';
  const problems: Problems = [];
  if (!orderId) problems.push({ field: 'order_id', problem: 'required' });
  else if (!ORDER_ID.test(orderId)) problems.push({ field: 'order_id', problem: 'order_invalid' });
  const { digits, problem } = readPhone(query.phone);
  if (problem) problems.push(problem);
  return problems.length > 0 || !digits ? { problems } : { lookup: { by: 'order', orderId, phone: digits }, problems };
}

/** The link's token only when the phone given is the order's shipping or billing phone, in full. */
function tokenIfPhone(
  order: { token: string; shippingPhone: string; billingPhone: string } | undefined,
  phone: string,
): string | undefined {
  if (!order) return undefined;
  const phones = [order.shippingPhone, order.billingPhone].map((p) => normalizeIndianPhone(p));
  return phones.includes(phone) ? order.token : undefined;
}

/**
 * The store's tracking page (decisions "The store's tracking page" and "An AWB shows, the link
 * acts"): its brand, and a form that shows an AWB's status and journey, read-only, and a form that
 * takes a buyer to a shipment's own page (/t/<token>), where a failed delivery can be answered,
 * only with the order's whole phone number beside its order id or its AWB. GET forms: they change
 * nothing, so there is nothing to forge, and a link with ?awb= can be bookmarked or put in a
 * store's own messages. Registered beside the /t/ routes, under their rate limit per client address.
 */
export function storePageRoutes(db: Db, pages: TrackingPageService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/track/:store_id',
      {
        schema: {
          tags: ['Tracking page'],
          summary: "A store's tracking page (HTML, public)",
          description:
            "The store's brand and logo, and two forms: an AWB, or an order id with the phone number on the order. An AWB of " +
            'this store shows its status, promised date, courier and journey, read-only: no name, city, address, phone, link or ' +
            "form but one, the order's phone number, which with the AWB (as with the order id) is a 303 to that shipment's own " +
            'page (/t/<token>), where a failed delivery is answered. Otherwise 404, the same whether the AWB or order exists in ' +
            "another store or account or nowhere. Refused fields are named beside them (400), a phone that is not the AWB's " +
            "order's among them. In the buyers' nine languages. 404 for an unknown or disconnected store. The address is the store " +
            "answer's `tracking_page_url`.",
          security: [],
          params: StoreParams,
          querystring: StorePageQuery,
          response: {
            200: htmlResponse("The page and its forms, or an AWB's status and journey."),
            303: {
              type: 'null',
              description:
                "The order's phone matched: `Location` is the shipment's tracking page, /t/<token> (with `?lang` when one was " +
                'chosen). Never for an AWB alone.',
            },
            400: {
              description:
                "The page again (an AWB's, when the AWB was found), naming each refused field beside it, a phone that is not the " +
                "order's among them; a query refused before the page is read (a value over 2,000 characters, one sent twice or " +
                'holding a NUL) is the JSON error body.',
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
        const signals = requestLanguage(request);
        const chosen = rememberLanguage(request, reply);
        const store = UUID.test(request.params.store_id)
          ? await repo.findConnectedStore(db, request.params.store_id)
          : undefined;
        if (!store)
          return reply
            .status(404)
            .headers(PAGE_HEADERS)
            .send(notFoundPage(chooseLanguage(signals)));
        const language = chooseLanguage({ ...signals, merchant: store.language });
        const self = storeTrackPath(store.id);
        const withLang = (path: string) => `${path}${chosen ? `${path.includes('?') ? '&' : '?'}lang=${chosen}` : ''}`;
        const view = {
          brand: store.brandName ?? store.accountName,
          logoPath: store.logoSha256 ? logoPath(store.id, store.logoSha256) : null,
          supportEmail: store.supportEmail,
          supportPhone: store.supportPhone,
        };
        const { awb, order_id, phone } = request.query;
        const values: Partial<Record<StoreField, string>> = { awb, order_id, phone };
        const send = (status: 200 | 400 | 404, state: Omit<StorePageState, 'values'>) =>
          reply
            .status(status)
            .headers(PAGE_HEADERS)
            .send(
              storePage(
                language,
                view,
                { action: self, nav: { hrefOf: (l) => `${self}?lang=${l}`, first: null }, lang: chosen },
                { ...state, values },
              ),
            );
        if (awb === undefined && order_id === undefined && phone === undefined)
          return send(200, { problems: [], notFound: false });

        const form = readForm(request.query);
        const shownAwb = form.lookup?.by === 'awb' ? form.lookup.awb : form.awb;
        if (shownAwb !== undefined) {
          // An AWB names a parcel, not a buyer: its page shows where the parcel is, and acts for no one.
          const status = await pages.publicView(store, shownAwb, ({ merchant, state }) =>
            chooseLanguage({ ...signals, merchant: merchant ?? store.language, state }),
          );
          if (!status) return send(404, { problems: [], notFound: true });
          const answerPhone = form.lookup?.by === 'awb' ? form.lookup.phone : undefined;
          const token = answerPhone && tokenIfPhone(await repo.findAwbOrder(db, store, shownAwb), answerPhone);
          if (token) return redirectTo(reply, token, chosen);
          const problems: Problems = answerPhone ? [{ field: 'phone', problem: 'phone_mismatch' }] : form.problems;
          const awbPath = `${self}?awb=${encodeURIComponent(shownAwb)}`;
          return reply
            .status(problems.length > 0 ? 400 : 200)
            .headers(PAGE_HEADERS)
            .send(
              awbPage(
                status,
                shownAwb,
                {
                  action: self,
                  store: withLang(self),
                  nav: { hrefOf: (l) => `${awbPath}&lang=${l}`, first: status.state_language },
                  lang: chosen,
                },
                { problems, notFound: false, values: { phone } },
              ),
            );
        }
        const { lookup, problems } = form;
        if (lookup?.by !== 'order') return send(400, { problems, notFound: false });
        const token = tokenIfPhone(await repo.findBookedOrder(db, store, lookup.orderId), lookup.phone);
        if (!token) return send(404, { problems: [], notFound: true });
        return redirectTo(reply, token, chosen);
      },
    );
  };
}

function redirectTo(reply: FastifyReply, token: string, chosen: Language | null) {
  return reply
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'same-origin')
    .redirect(`/t/${token}${chosen ? `?lang=${chosen}` : ''}`, 303);
}
