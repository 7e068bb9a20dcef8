import multipart, { type MultipartFile } from '@fastify/multipart';
import { systemActor } from '../../domain/access/permissions.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../base/clock.js';
import { formatDay, indiaDayOf } from '../../domain/calendar.js';
import { chooseLanguage, isLanguage, type Language } from '../../domain/buyer-copy/page-text.js';
import { RETURN_FORM_WORDS } from '../../domain/buyer-copy/return-form-words.js';
import { refusalText } from '../../domain/buyer-copy/return-request-words.js';
import { DomainError } from '../../domain/errors.js';
import {
  MAX_RETURN_PHOTOS,
  RETURN_PHOTO_MAX_BYTES,
  RETURN_PHOTO_MAX_MEGABYTES,
} from '../../domain/return-requests/return-request-rules.js';
import { type ReturnPhoto, readReturnPhoto } from '../../features/return-requests/return-photos.js';
import type { ReturnRequestsService } from '../../features/return-requests/return-requests.service.js';
import { uploadSlots } from '../../tenancy/stores/upload-slots.js';
import type { FormTokens } from './form-tokens.js';
import { COOKIE, cookieValue, crossSite, NONCE, PAGE_HEADERS, rememberLanguage, requestLanguage } from './page-http.js';
import { anchorOf, formValues, openingValues, readPickup, readRefund } from './return-form-input.js';
import { type BuyerRequest, type FormProblem, type ReturnFormState, returnFormPage } from './return-form.html.js';
import { notFoundPage } from './tracking-page.html.js';
import { findByToken } from './tracking-page.repository.js';
import { PageQuery, TokenParams } from './tracking-page.schemas.js';
import type { TrackingPageService } from './tracking-page.service.js';

const ReturnFormQuery = Type.Object({
  ...PageQuery.properties,
  sent: Type.Optional(
    Type.String({ maxLength: 1, description: 'Set by the form after a request: the page thanks the buyer.' }),
  ),
});

/** Forms read and judged at once per process: each holds up to five photos (30 MiB) until answered. */
const CONCURRENT_FORMS = 4;
/** Files past MAX_RETURN_PHOTOS are drained, not kept, up to this many; past it the post is refused whole. */
const FILES_READ = 20;

type Form = NonNullable<Awaited<ReturnType<ReturnRequestsService['buyerForm']>>>;

/** The multipart reader's own limits (files, fields, parts): a post past them is not a browser's form. */
const LIMIT_ERRORS = new Set(['FST_FILES_LIMIT', 'FST_FIELDS_LIMIT', 'FST_PARTS_LIMIT']);

/**
 * The form's post: its text fields, and its photos' bytes (a file over the size limit is marked, not
 * kept; files past MAX_RETURN_PHOTOS are counted and drained). `overLimit` when the post went past
 * the reader's own limits, whose rest is then not read.
 */
async function readPost(request: FastifyRequest) {
  const fields: Record<string, string> = {};
  const files: { bytes: Buffer | null }[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      const file = part as MultipartFile;
      if (file.fieldname !== 'photos' || files.length > MAX_RETURN_PHOTOS) {
        file.file.resume();
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of file.file) if (files.length < MAX_RETURN_PHOTOS) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      // A file input left empty is posted as a part with no file name and no bytes.
      if (file.filename === '' && bytes.length === 0 && !file.file.truncated) continue;
      files.push({ bytes: file.file.truncated || files.length >= MAX_RETURN_PHOTOS ? null : bytes });
    }
  } catch (error) {
    if (LIMIT_ERRORS.has((error as { code?: string }).code ?? '')) return { fields, files, overLimit: true };
    throw error;
  }
  return { fields, files, overLimit: false };
}

/**
 * The buyer's return request on the tracking page (docs/returns.md): the form, and its post. The
 * tracking link's token is the credential; a post also needs the page's signed double-submit token
 * (form-tokens.ts) and must come from this site; the /t/ routes' rate limit per client covers it.
 */
export function returnFormRoutes(
  db: Parameters<typeof findByToken>[0],
  pages: TrackingPageService,
  requests: Pick<ReturnRequestsService, 'buyerForm' | 'ask'>,
  forms: FormTokens,
  clock: Clock,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const slots = uploadSlots(CONCURRENT_FORMS);
    await app.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: RETURN_PHOTO_MAX_BYTES, files: FILES_READ, fields: 300, fieldSize: 2000, parts: 330 },
    });

    const chosenLanguage = (request: FastifyRequest) => {
      const { query, cookie } = requestLanguage(request);
      return isLanguage(query) ? query : isLanguage(cookie) ? cookie : null;
    };
    const paths = (token: string, request: FastifyRequest) => {
      const chosen = chosenLanguage(request);
      const lang = chosen ? `?lang=${chosen}` : '';
      return {
        action: `/t/${token}/return${lang}`,
        tracking: `/t/${token}${lang}`,
        sent: `/t/${token}/return?${chosen ? `lang=${chosen}&` : ''}sent=1`,
      };
    };

    /** The shipment, its page's brand and language, and what the form shows; undefined for an unknown link. */
    async function load(request: FastifyRequest, token: string) {
      const shipment = await findByToken(db, token);
      const view =
        shipment &&
        (await pages.view(token, ({ merchant, state }) =>
          chooseLanguage({ ...requestLanguage(request), merchant, state }),
        ));
      const form = shipment && (await requests.buyerForm(shipment.accountId, shipment.id));
      return shipment && view && form ? { shipment, view, form } : undefined;
    }

    function send(
      request: FastifyRequest,
      reply: FastifyReply,
      token: string,
      loaded: NonNullable<Awaited<ReturnType<typeof load>>>,
      state: Pick<ReturnFormState, 'state' | 'problems' | 'expired'> & { values?: ReturnFormState['values'] },
      status = 200,
    ) {
      const { view, form } = loaded;
      const language = view.language;
      const shown = shownForm(form, language);
      const open = state.state === 'open' && form.gate === undefined;
      let csrf: string | null = null;
      if (open) {
        const nonce = cookieValue(request, COOKIE);
        const issued = forms.issue(token, clock.now(), nonce && NONCE.test(nonce) ? nonce : undefined);
        csrf = issued.field;
        const secure = request.protocol === 'https' ? '; Secure' : '';
        reply.header(
          'set-cookie',
          `${COOKIE}=${issued.nonce}; Path=/t/${token}; Max-Age=7200; HttpOnly; SameSite=Strict${secure}`,
        );
      }
      const p = paths(token, request);
      return reply
        .status(status)
        .headers(PAGE_HEADERS)
        .send(
          returnFormPage(
            view,
            {
              action: p.action,
              tracking: p.tracking,
              nav: { hrefOf: (other: Language) => `/t/${token}/return?lang=${other}`, first: view.state_language },
            },
            {
              ...shown,
              state: state.state === 'sent' ? 'sent' : open ? 'open' : 'closed',
              values: state.values ?? openingValues(form.items.length, form.pickup),
              problems: state.problems,
              expired: state.expired,
              csrf,
            },
          ),
        );
    }

    app.get(
      '/t/:token/return',
      { schema: { hide: true, params: TokenParams, querystring: ReturnFormQuery } },
      async (request, reply) => {
        const { token } = request.params;
        rememberLanguage(request, reply);
        const loaded = await load(request, token);
        if (!loaded) return notFound(request, reply);
        const state = request.query.sent === '1' ? 'sent' : 'open';
        return send(request, reply, token, loaded, { state, problems: [], expired: false });
      },
    );

    app.post(
      '/t/:token/return',
      { schema: { hide: true, params: TokenParams, querystring: PageQuery } },
      async (request, reply) => {
        const { token } = request.params;
        const loaded = await load(request, token);
        if (!loaded) return notFound(request, reply);
        // Forged before a byte of the body is read: not from this site, or without the page's cookie.
        const nonce = cookieValue(request, COOKIE);
        if (!request.isMultipart() || crossSite(request) || !nonce || !NONCE.test(nonce))
          return send(request, reply, token, loaded, { state: 'open', problems: [], expired: true }, 403);
        // The slot is given back when the connection is done with, however it ends (answered, or dropped).
        const release = await slots.acquire();
        reply.raw.once('close', release);
        if (request.raw.destroyed) release();
        const { fields, files, overLimit } = await readPost(request);
        const { form, view } = loaded;
        const values = formValues(fields, form.items.length);
        if (!forms.verify(token, fields.csrf, nonce, clock.now()))
          return send(request, reply, token, loaded, { state: 'open', problems: [], expired: true, values }, 403);
        if (form.gate)
          return send(request, reply, token, loaded, { state: 'closed', problems: [], expired: false }, 409);

        const language = view.language;
        const { pickup, problems } = readPickup(values, form.pickup, language);
        const refund = readRefund(values, language);
        problems.push(...refund.problems);
        const photos = await readPhotos(overLimit ? tooMany : files, language, problems);
        const asked = values.quantities.flatMap((quantity, i) => (quantity > 0 ? [i] : []));
        if (problems.length === 0) {
          try {
            await requests.ask(
              systemActor(loaded.shipment.accountId, 'the buyer, on the tracking page'),
              loaded.shipment.id,
              {
                items: asked.map((i) => ({ sku: form.items[i]!.sku, quantity: values.quantities[i]! })),
                reason: values.reason,
                comment: values.comment || undefined,
                resolution: values.resolution,
                exchangeFor: values.exchangeFor || undefined,
                pickup,
                photos,
                language,
                refundTo: refund.refundTo,
                refundMethodRequired: true,
              },
            );
            // Post/redirect/get: a reload shows the request, it does not post again.
            return reply
              .status(303)
              .header('location', paths(token, request).sent)
              .header('cache-control', 'no-store')
              .send();
          } catch (error) {
            if (!(error instanceof DomainError) || error.code !== 'return_request_refused') throw error;
            const firstOpen = Math.max(
              0,
              form.items.findIndex((item) => !item.refusal),
            );
            for (const detail of error.details ?? [])
              problems.push({ anchor: anchorOf(detail.field ?? '', asked, firstOpen), message: detail.message });
          }
        }
        // Read again: the request may have been refused because the window closed meanwhile.
        const fresh = (await load(request, token)) ?? loaded;
        if (fresh.form.gate)
          return send(request, reply, token, fresh, { state: 'closed', problems: [], expired: false }, 409);
        return send(request, reply, token, fresh, { state: 'open', problems, expired: false, values }, 400);
      },
    );

    function notFound(request: FastifyRequest, reply: FastifyReply) {
      return reply
        .status(404)
        .headers(PAGE_HEADERS)
        .send(notFoundPage(chooseLanguage(requestLanguage(request))));
    }
  };
}

/** Stands for a post past the reader's limits: more files than a form may hold. */
const tooMany = Array.from({ length: MAX_RETURN_PHOTOS + 1 }, () => ({ bytes: null }));

/** Each photo read and re-encoded (return-photos.ts); one refused is a problem naming its place. */
async function readPhotos(files: { bytes: Buffer | null }[], language: Language, problems: FormProblem[]) {
  const t = RETURN_FORM_WORDS[language];
  const photos: ReturnPhoto[] = [];
  if (files.length > MAX_RETURN_PHOTOS) {
    problems.push({
      anchor: 'photos',
      message: refusalText({ code: 'too_many_photos', field: 'photos' }, [], language),
    });
    return photos;
  }
  for (const [i, file] of files.entries()) {
    const read = file.bytes === null ? { problem: 'photo_too_big' as const } : await readReturnPhoto(file.bytes);
    if ('problem' in read)
      problems.push({ anchor: 'photos', message: t.photoProblems[read.problem](i + 1, RETURN_PHOTO_MAX_MEGABYTES) });
    else photos.push(read);
  }
  return photos;
}

/** The form's items, the closed form's reason and the requests so far, in the buyer's words. */
function shownForm(form: Form, language: Language) {
  const delivered = form.items.map((item) => ({ sku: item.sku, name: item.name, units: item.units, category: null }));
  return {
    closedBecause: form.gate ? refusalText(form.gate, delivered, language) : null,
    lastDay: form.lastDay,
    items: form.items.map((item) => ({
      name: item.name,
      unitsLeft: item.unitsLeft,
      refused: item.refusal ? refusalText(item.refusal, delivered, language) : null,
    })),
    reasons: form.reasons,
    refundMethods: form.refundMethods,
    requests: form.requests.map((r) => ({
      status: r.status as BuyerRequest['status'],
      createdDay: formatDay(indiaDayOf(new Date(r.created_at))),
      items: r.items,
      resolution: r.resolution as BuyerRequest['resolution'],
      exchangeFor: r.exchange_for,
      refundTo: r.refund_to,
      decisionNote: r.decision_note,
    })),
  };
}
