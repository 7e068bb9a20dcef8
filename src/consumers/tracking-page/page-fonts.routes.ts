import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../http/errors.js';
import { TRACKING_PAGE_ERRORS } from './tracking-page.errors.js';
import { exampleFontName, fontFile, gzippedFont } from './page-fonts.js';

/** The tracking page's fonts (page-fonts.ts), public: the customer's browser fetches them. */
export function pageFontRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/fonts/:name',
      {
        schema: {
          tags: ['Tracking page'],
          summary: "A font of the customer's tracking page (public)",
          description:
            "Noto Sans in the page's script (TrueType, gzip when the browser accepts it), named by the page's style. The name " +
            'carries a hash of the bytes, so the answer may be cached for a year.',
          security: [],
          params: Type.Object({
            name: Type.String({ maxLength: 100, description: 'As the page names it.', examples: [exampleFontName()] }),
          }),
          response: {
            // The answer is the font's bytes, not JSON: documented as its own media type.
            200: {
              description: 'The TrueType font (gzip-encoded when the browser accepts it).',
              content: { 'font/ttf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
            },
            ...errorResponses(404),
          },
        },
      },
      async (request, reply) => {
        const file = fontFile(request.params.name);
        if (!file) throw TRACKING_PAGE_ERRORS.page_font_not_found.error('Font not found');
        reply.headers({
          'cache-control': 'public, max-age=31536000, immutable',
          'x-content-type-options': 'nosniff',
          vary: 'accept-encoding',
        });
        reply.type('font/ttf');
        if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
          return reply.header('content-encoding', 'gzip').send(gzippedFont(file));
        }
        return reply.send(file.bytes);
      },
    );
  };
}
