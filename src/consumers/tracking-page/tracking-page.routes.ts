import { answer } from '../../http/answer.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../base/clock.js';
import { DomainError } from '../../domain/errors.js';
import { asAppError } from '../../http/errors.js';
import { SHIPMENT_ERRORS } from '../../domain/shipment/shipment.errors.js';
import type { FormTokens } from './form-tokens.js';
import {
  COOKIE,
  cookieValue,
  crossSite,
  htmlResponse,
  NONCE,
  PAGE_HEADERS,
  rememberLanguage,
  requestLanguage,
} from './page-http.js';
import { chooseLanguage, isLanguage, type Language, PAGE_TEXT } from '../../domain/buyer-copy/page-text.js';
import { type FormState, notFoundPage, trackingPage } from './tracking-page.html.js';
import { refuseText } from './refuse-text.js';
import { HtmlPage, PageQuery, ReattemptForm, RefuseForm, TokenParams, TrackingJson } from './tracking-page.schemas.js';
import {
  type CustomerReattempt,
  type LanguagePick,
  refuseOffered,
  type TrackingPageService,
  type TrackingView,
} from './tracking-page.service.js';

const tags = ['Tracking page'];
export function trackingPageRoutes(
  pages: TrackingPageService,
  forms: FormTokens,
  clock: Clock,
  /** Whether a delivered shipment's page links to the return form: its store takes requests now, or it has some. */
  returnsOffered: (token: string) => Promise<boolean>,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Only the reattempt and refuse forms post urlencoded; nowhere else is it parsed.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );

    // The page's own links carry the language only when the buyer chose it (now, or last time):
    // otherwise the next request applies the same rule and lands on the same language, and a
    // redirect after a form would remember, as the buyer's choice, a language they never picked.
    const paths = (token: string, request: FastifyRequest) => {
      const { query, cookie } = requestLanguage(request);
      const chosen = isLanguage(query) ? query : isLanguage(cookie) ? cookie : null;
      const lang = chosen ? `?lang=${chosen}` : '';
      return {
        self: `/t/${token}${lang}`,
        action: `/t/${token}/reattempt${lang}`,
        refuse: `/t/${token}/refuse${lang}`,
        returnForm: `/t/${token}/return${lang}`,
        language: (other: Language) => `/t/${token}?lang=${other}`,
      };
    };

    /** Renders the page, with a fresh form token (and its cookie) when the form is offered. */
    async function sendPage(
      request: FastifyRequest,
      reply: FastifyReply,
      token: string,
      view: TrackingView,
      state: Omit<FormState, 'csrf'>,
      status = 200,
    ) {
      let csrf: string | null = null;
      if (view.reattempt.available || refuseOffered(view)) {
        // Another tab's nonce is kept, so each open copy of the page can still post.
        const nonce = cookieValue(request, COOKIE);
        const issued = forms.issue(token, clock.now(), nonce && NONCE.test(nonce) ? nonce : undefined);
        csrf = issued.field;
        const secure = request.protocol === 'https' ? '; Secure' : '';
        reply.header(
          'set-cookie',
          `${COOKIE}=${issued.nonce}; Path=/t/${token}; Max-Age=7200; HttpOnly; SameSite=Strict${secure}`,
        );
      }
      return reply
        .status(status)
        .headers(PAGE_HEADERS)
        .send(
          trackingPage(
            view,
            paths(token, request),
            { ...state, csrf },
            view.kind !== 'return' && view.status === 'delivered' && (await returnsOffered(token)),
          ),
        );
    }

    /** The buyers' pages' rule (domain/buyer-copy/page-text.ts), once the shipment is read. */
    const languageOf =
      (request: FastifyRequest): LanguagePick =>
      ({ merchant, state }) =>
        chooseLanguage({ ...requestLanguage(request), merchant, state });
    /** The language of a page with no shipment behind it: the buyer's and the browser's say. */
    const plainLanguage = (request: FastifyRequest) => chooseLanguage(requestLanguage(request));

    app.get(
      '/t/:token',
      {
        schema: {
          tags,
          summary: "The customer's tracking page (HTML, public)",
          description:
            "Server-rendered, no JavaScript: the store's logo and brand, the status in plain words, the promised date, the " +
            'journey in India time, courier and AWB, the support contact, and after a failed delivery a form to ask for another ' +
            'attempt. In English, Hindi, Marathi, Bengali, Gujarati, Tamil, Telugu, Kannada or Malayalam: `lang` (remembered ' +
            "for a year in the `dakiya_lang` cookie), else the language last picked, else the order's or store's `language`, " +
            "else the browser's Accept-Language among these (English included), else the shipping state's language, else " +
            "English; the page links to each other language, the shipping state's first. Shows the customer's first name and " +
            'city, nothing more.',
          security: [],
          params: TokenParams,
          querystring: PageQuery,
          response: {
            200: htmlResponse('The page.'),
            404: {
              description: 'No shipment has this link: an HTML page that names no brand.',
              content: { 'text/html': { schema: HtmlPage }, 'application/json': { schema: Type.Ref('ErrorBody') } },
            },
          },
        },
      },
      async (request, reply) => {
        // /t/{token}.json with a token its route cannot match (a line break in it) lands here: it
        // asked for JSON, and its 404 is JSON.
        if (request.params.token.endsWith('.json'))
          throw SHIPMENT_ERRORS.tracking_link_not_found.error('Tracking link not found');
        rememberLanguage(request, reply);
        const view = await pages.view(request.params.token, languageOf(request));
        if (!view)
          return reply
            .status(404)
            .headers(PAGE_HEADERS)
            .send(notFoundPage(plainLanguage(request)));
        return sendPage(request, reply, request.params.token, view, { errors: [], values: {} });
      },
    );

    app.get(
      '/t/:token.json',
      {
        schema: {
          tags,
          summary: 'The tracking page as JSON (public)',
          description:
            "Everything the page shows, for a merchant's own site or app. The same language rule as the page (it sets no " +
            'cookie). 404 in the error envelope for a link that names no shipment or return: unknown, malformed, or holding a ' +
            'line break.',
          security: [],
          params: TokenParams,
          querystring: PageQuery,
          response: {
            200: answer(
              TrackingJson,
              'What the page shows, as JSON: brand, status in words, promised date, journey and support contact.',
            ),
            404: Type.Ref('ErrorBody', {
              description:
                'No shipment or return has this link (an unknown or malformed token, or one holding a line break): the JSON ' +
                'error body, `{"code": "tracking_link_not_found", "message": "Tracking link not found", "errors": ["Tracking link not found"]}`.',
            }),
          },
        },
      },
      async (request, reply) => {
        const view = await pages.view(request.params.token, languageOf(request));
        if (!view) throw SHIPMENT_ERRORS.tracking_link_not_found.error('Tracking link not found');
        const { logo_path: _path, ...brand } = view.brand;
        const { state_language: _state, ...shown } = view;
        reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', vary: PAGE_HEADERS.vary });
        return { ...shown, brand };
      },
    );

    // A browser form, not an API: it needs the page's cookie, so it is left out of the OpenAPI
    // document (the API's way to ask for a reattempt is POST /custom/api/v1/reattempt).
    app.post(
      '/t/:token/reattempt',
      { schema: { hide: true, params: TokenParams, querystring: PageQuery, body: ReattemptForm } },
      async (request, reply) => {
        const { token } = request.params;
        const view = await pages.view(token, languageOf(request));
        if (!view)
          return reply
            .status(404)
            .headers(PAGE_HEADERS)
            .send(notFoundPage(plainLanguage(request)));
        const { language } = view;
        const form: CustomerReattempt = {
          reattempt_date: request.body.reattempt_date || undefined,
          landmark: request.body.landmark?.trim() || undefined,
          phone: request.body.phone?.trim() || undefined,
        };
        const values = { ...form };
        if (crossSite(request) || !forms.verify(token, request.body.csrf, cookieValue(request, COOKIE), clock.now())) {
          return sendPage(request, reply, token, view, { errors: [PAGE_TEXT[language].formExpired], values }, 403);
        }
        try {
          await pages.reattempt(token, form);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          const refusal = asAppError(error);
          if (refusal.statusCode >= 500) throw error;
          const again = (await pages.view(token, language)) ?? view;
          return sendPage(request, reply, token, again, { errors: refusal.messages, values }, refusal.statusCode);
        }
        // Post/redirect/get: a reload shows the page, it does not post again.
        return reply
          .status(303)
          .header('location', paths(token, request).self)
          .header('cache-control', 'no-store')
          .send();
      },
    );

    // The buyer refuses the parcel after a failed delivery (the NDR message's "cancel"): a browser
    // form like the reattempt's, with a ticked box as the confirmation.
    app.post(
      '/t/:token/refuse',
      { schema: { hide: true, params: TokenParams, querystring: PageQuery, body: RefuseForm } },
      async (request, reply) => {
        const { token } = request.params;
        const view = await pages.view(token, languageOf(request));
        if (!view)
          return reply
            .status(404)
            .headers(PAGE_HEADERS)
            .send(notFoundPage(plainLanguage(request)));
        const { language } = view;
        const text = refuseText(language);
        if (crossSite(request) || !forms.verify(token, request.body.csrf, cookieValue(request, COOKIE), clock.now())) {
          return sendPage(
            request,
            reply,
            token,
            view,
            { errors: [], refuseErrors: [PAGE_TEXT[language].formExpired], values: {} },
            403,
          );
        }
        if (request.body.confirm !== 'yes')
          return sendPage(
            request,
            reply,
            token,
            view,
            { errors: [], refuseErrors: [text.notConfirmed], values: {} },
            400,
          );
        const outcome = await pages.refuse(token);
        if (outcome === 'not_found') return reply.status(404).headers(PAGE_HEADERS).send(notFoundPage(language));
        if (outcome === 'too_late') {
          const again = (await pages.view(token, language)) ?? view;
          return sendPage(request, reply, token, again, { errors: [], refuseErrors: [text.tooLate], values: {} }, 409);
        }
        return reply
          .status(303)
          .header('location', paths(token, request).self)
          .header('cache-control', 'no-store')
          .send();
      },
    );
  };
}
