import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { chooseLanguage } from '../../domain/buyer-copy/page-text.js';
import type { AddressUpdateField } from '../../domain/rto/address-update.js';
import { AddressUpdateRefused, type BuyerAddressUpdate } from '../../features/orders/buyer-address.js';
import { DomainError } from '../../domain/errors.js';
import { SHIPMENT_ERRORS } from '../../domain/shipment/shipment.errors.js';
import { type AddressFormState, type AddressLanguage, addressFormPage } from './address-form.html.js';
import type { FormTokens } from './form-tokens.js';
import { COOKIE, cookieValue, crossSite, NONCE, PAGE_HEADERS, requestLanguage } from './page-http.js';
import { findByToken } from './tracking-page.repository.js';
import { notFoundPage } from './tracking-page.html.js';
import { TokenParams } from './tracking-page.schemas.js';

// Long enough that the form's own checks name a field that is too long, rather than the schema.
const Field = Type.Optional(Type.String({ maxLength: 2000 }));
const AddressForm = Type.Object({
  csrf: Field,
  address: Field,
  landmark: Field,
  pincode: Field,
  city: Field,
  state: Field,
  alternate_phone: Field,
});
const AddressQuery = Type.Object({
  lang: Type.Optional(
    Type.String({
      maxLength: 16,
      description: "`en` or `hi`; otherwise Hindi when the buyers' pages' language rule says Hindi, else English.",
      examples: ['hi'],
    }),
  ),
  saved: Type.Optional(
    Type.String({ maxLength: 1, description: 'Set by the form after a save: the page thanks the buyer.' }),
  ),
});

/**
 * The buyer's "update your address" form (decision 94), behind the link of the message: the
 * tracking link's token is the credential, a post also needs the page's signed double-submit token
 * (form-tokens.ts) and must come from this site; the /t/ routes' rate limit per client covers it.
 */
export function addressFormRoutes(
  db: Db,
  update: BuyerAddressUpdate,
  forms: FormTokens,
  clock: Clock,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 8192 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    // The form is written in English and Hindi: Hindi when the buyers' pages' rule says so.
    const languageOf = (request: FastifyRequest): AddressLanguage =>
      chooseLanguage(requestLanguage(request)) === 'hi' ? 'hi' : 'en';
    const paths = (token: string, language: AddressLanguage) => ({
      action: `/t/${token}/address?lang=${language}`,
      other: `/t/${token}/address?lang=${language === 'en' ? 'hi' : 'en'}`,
    });

    function send(
      request: FastifyRequest,
      reply: FastifyReply,
      token: string,
      brand: string,
      language: AddressLanguage,
      form: Omit<AddressFormState, 'csrf'>,
      status = 200,
    ) {
      let csrf: string | null = null;
      if (form.state === 'open') {
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
        .send(addressFormPage(language, brand, paths(token, language), { ...form, csrf }));
    }

    // A browser page and its form (the post needs the page's cookie), like the reattempt form: left
    // out of the OpenAPI document; the merchant's way to change an address is PUT /custom/api/v1/order.
    app.get(
      '/t/:token/address',
      { schema: { hide: true, params: TokenParams, querystring: AddressQuery } },
      async (request, reply) => {
        const { token } = request.params;
        const language = languageOf(request);
        const shipment = await findByToken(db, token);
        if (!shipment) return reply.status(404).headers(PAGE_HEADERS).send(notFoundPage(language));
        const brand = shipment.brandName ?? shipment.accountName;
        if (request.query.saved === '1')
          return send(request, reply, token, brand, language, {
            state: 'saved',
            values: {},
            problems: [],
            expired: false,
          });
        if (shipment.status !== 'pending')
          return send(request, reply, token, brand, language, {
            state: 'closed',
            values: {},
            problems: [],
            expired: false,
          });
        const values = (await update.current(shipment.accountId, shipment.id)) ?? {};
        return send(request, reply, token, brand, language, { state: 'open', values, problems: [], expired: false });
      },
    );

    app.post(
      '/t/:token/address',
      { schema: { hide: true, params: TokenParams, querystring: AddressQuery, body: AddressForm } },
      async (request, reply) => {
        const { token } = request.params;
        const language = languageOf(request);
        const shipment = await findByToken(db, token);
        if (!shipment) return reply.status(404).headers(PAGE_HEADERS).send(notFoundPage(language));
        const brand = shipment.brandName ?? shipment.accountName;
        const { csrf, ...values } = request.body;
        if (crossSite(request) || !forms.verify(token, csrf, cookieValue(request, COOKIE), clock.now())) {
          return send(
            request,
            reply,
            token,
            brand,
            language,
            { state: shipment.status === 'pending' ? 'open' : 'closed', values, problems: [], expired: true },
            403,
          );
        }
        try {
          await update.update(shipment.accountId, shipment.id, values);
        } catch (error) {
          if (error instanceof AddressUpdateRefused) {
            const problems = error.problems.map((p) => ({ field: p.field as AddressUpdateField, code: p.code }));
            return send(
              request,
              reply,
              token,
              brand,
              language,
              { state: 'open', values, problems, expired: false },
              400,
            );
          }
          if (error instanceof DomainError && error.code === SHIPMENT_ERRORS.shipment_past_pickup.code)
            return send(
              request,
              reply,
              token,
              brand,
              language,
              { state: 'closed', values: {}, problems: [], expired: false },
              409,
            );
          throw error;
        }
        // Post/redirect/get: a reload shows the thanks, it does not post again.
        return reply
          .status(303)
          .header('location', `/t/${token}/address?lang=${language}&saved=1`)
          .header('cache-control', 'no-store')
          .send();
      },
    );
  };
}
