import multipart from '@fastify/multipart';
import { actorOf } from '../../http/permission-guard.js';
import { STORE_ERRORS } from './stores.errors.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../http/errors.js';
import { answer } from '../../http/answer.js';
import { storesOf } from '../../http/store-guard.js';
import { LOGO_MAX_BYTES } from './logo.js';
import {
  CreateStoreBody,
  LogoParams,
  LogoQuery,
  STORE_EXAMPLES,
  StoreEnvelope,
  StoreIdParams,
  type StoreInput,
  StoreListEnvelope,
  UpdateStoreBody,
} from './stores.schemas.js';
import type { StoresService } from './stores.service.js';
import { uploadSlots } from './upload-slots.js';

const tags = ['Stores'];
const config = { resource: 'Store', notFound: STORE_ERRORS.store_not_found };
/** A logo over its size is refused while it streams in, naming logo. */
const LOGO_UPLOAD = { field: 'logo', maxBytes: LOGO_MAX_BYTES };

/** Logo uploads read and stored at once per process (upload-slots.ts). */
const CONCURRENT_UPLOADS = 4;

export function storesRoutes(stores: StoresService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const slots = uploadSlots(CONCURRENT_UPLOADS);
    const releases = new WeakMap<object, () => void>();
    const releaseSlot = (request: object) => releases.get(request)?.();
    // The slot goes back when the connection is done with the request, however it ends: answered,
    // or dropped by the client while the logo was stored (no onResponse then, and no abort hook).
    app.addHook('onRequest', async (request, reply) => {
      reply.raw.once('close', () => releaseSlot(request));
    });
    // Only the store routes take files, so only they parse multipart (elsewhere it is a 415).
    await app.register(multipart, {
      attachFieldsToBody: 'keyValues',
      limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
      // The file arrives as base64, like a JSON logo, so both encodings share one schema and one
      // decoder. toBuffer() stops at fileSize while streaming: an oversized upload is never held whole.
      // The slot is held until the answer is sent, when the request's copies of the file are dropped.
      async onFile(part) {
        if (!releases.has(this)) releases.set(this, await slots.acquire());
        (part as unknown as { value: string }).value = (await part.toBuffer()).toString('base64');
      },
    });

    app.get(
      '/client-stores',
      {
        schema: {
          tags,
          summary: 'List the active stores of the account, oldest first',
          description: 'A credential limited to stores lists those only.',
          response: {
            200: answer(StoreListEnvelope, 'The connected stores.', STORE_EXAMPLES.list),
            ...errorResponses(401),
          },
        },
      },
      async (request) => {
        const reach = storesOf(request);
        const listed = await stores.list(request.accountId);
        return { data: reach === null ? listed : listed.filter((store) => reach.includes(store.id)) };
      },
    );

    app.get(
      '/client-stores/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Get a store (disconnected stores too)',
          params: StoreIdParams,
          response: { 200: answer(StoreEnvelope, 'The store.', STORE_EXAMPLES.one), ...errorResponses(401, 404) },
        },
      },
      async (request) => ({ data: await stores.get(request.accountId, request.params.id) }),
    );

    app.post(
      '/client-stores',
      {
        config: { upload: LOGO_UPLOAD },
        bodyLimit: 3 * 1024 * 1024,
        schema: {
          tags,
          summary: 'Create a store (channel manual_order)',
          description:
            'JSON, or multipart/form-data with text fields store_name, brand_name, support_email, support_phone and ' +
            'notify_events (comma-separated in a form) and the file field logo. ' +
            'A logo over 2 MiB is refused while it streams in; one over 4096x4096 pixels, or that does not decode, is refused ' +
            '(422) before anything is stored.',
          body: CreateStoreBody,
          response: {
            201: answer(StoreEnvelope, 'The new store.', STORE_EXAMPLES.created),
            ...errorResponses(400, 401, 413, 415, 422),
          },
        },
      },
      async (request, reply) => {
        const store = await stores.create(actorOf(request), request.body as StoreInput);
        return reply.status(201).send({ data: store });
      },
    );

    app.put(
      '/client-stores/:id',
      {
        config: { ...config, upload: LOGO_UPLOAD },
        bodyLimit: 3 * 1024 * 1024,
        schema: {
          tags,
          summary:
            'Update any of store_name, brand_name, logo, support_email, support_phone and notify_events, or restore the store',
          description:
            'Partial update. In JSON, "logo": null removes the logo and null clears brand_name, support_email or support_phone; ' +
            '"notify_events": [] turns customer e-mails off. A logo is checked as on create. "status": "connected" restores a ' +
            'disconnected store (its name stays reserved while it is disconnected).',
          params: StoreIdParams,
          body: UpdateStoreBody,
          response: {
            200: answer(StoreEnvelope, 'The store as updated.', STORE_EXAMPLES.updated),
            ...errorResponses(400, 401, 404, 413, 415, 422),
          },
        },
      },
      async (request) => ({
        data: await stores.update(actorOf(request), request.params.id, request.body as StoreInput),
      }),
    );

    app.delete(
      '/client-stores/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Disconnect a store',
          description:
            'The store leaves the list and is refused on new orders; it stays readable by id and its name stays reserved. ' +
            'PUT {"status": "connected"} restores it.',
          params: StoreIdParams,
          response: {
            200: answer(StoreEnvelope, 'The store, now disconnected.', STORE_EXAMPLES.disconnected),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => ({ data: await stores.deactivate(actorOf(request), request.params.id) }),
    );
  };
}

/** If-None-Match may list several tags, weak (W/) or not, or be `*` (RFC 9110 13.1.2). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const candidate = tag.trim().replace(/^W\//, '');
    return candidate === '*' || candidate === etag;
  });
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=300';

/** The logo bytes, served without a credential because customers' mail clients fetch them. */
export function publicLogoRoutes(stores: StoresService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/store-logos/:id',
      {
        config: { resource: 'Logo', notFound: STORE_ERRORS.store_logo_not_found },
        schema: {
          tags,
          summary: "A store's logo image (public)",
          security: [],
          params: LogoParams,
          querystring: LogoQuery,
          response: {
            // Each image type the upload accepts, as its own media type: the answer is the bytes, not JSON.
            200: {
              description: 'The image bytes (PNG, JPEG, WebP or GIF).',
              content: Object.fromEntries(
                ['image/png', 'image/jpeg', 'image/webp', 'image/gif'].map((type) => [
                  type,
                  { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) },
                ]),
              ),
            },
            304: Type.Null({ description: 'Not modified (If-None-Match).' }),
            ...errorResponses(404),
          },
        },
      },
      async (request, reply) => {
        const logo = await stores.getPublicLogo(request.params.id);
        const etag = `"${logo.sha256}"`;
        // Only a URL naming the current version may be cached for good; others must revalidate.
        const current = request.query.v === logo.sha256.slice(0, 16);
        reply.headers({
          etag,
          'cache-control': current ? IMMUTABLE : REVALIDATE,
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'",
        });
        if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send(null);
        return reply.type(logo.contentType).send(logo.bytes);
      },
    );
  };
}
