import type { TestContext } from '../app.js';
import { formData, type Part } from './uploads.js';

// The buyer's return form on the tracking page, as a browser uses it: the page opened (its CSRF
// field and the cookie that goes with it), then the form posted from this site.

/** The form of a tracking link's path (`/t/<token>`): its page, CSRF field and form cookie. */
export async function openReturnForm(ctx: Pick<TestContext, 'app'>, trackPath: string, query = '?lang=en') {
  const page = await ctx.app.inject({ method: 'GET', url: `${trackPath}/return${query}` });
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1];
  const cookie = String(page.headers['set-cookie'] ?? '')
    .split(',')
    .map((c) => c.split(';')[0]!.trim())
    .find((c) => c.startsWith('dakiya_form='));
  return { page, csrf, cookie };
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>' };
const fromHtml = (text: string) => text.replace(/&(?:amp|quot|#39|lt|gt);/g, (entity) => ENTITIES[entity]!);

/** A photo as the form's file input posts it. */
export const photoPart = (value: Buffer, filename = 'photo.jpg', contentType = 'image/jpeg'): Part => ({
  name: 'photos',
  value,
  filename,
  contentType,
});

/** A request as the buyer's browser sends it: the form's text fields, then its files, after opening the page. */
export async function sendReturnForm(
  ctx: Pick<TestContext, 'app'>,
  trackPath: string,
  fields: Record<string, string>,
  files: Part[] = [],
) {
  const { page, csrf, cookie } = await openReturnForm(ctx, trackPath);
  // What the page prefilled (the pickup address) is posted as the browser would, unless given.
  const prefilled = Object.fromEntries(
    [...page.body.matchAll(/name="(pickup_[a-z]+)"[^>]* value="([^"]*)"/g)].map((m) => [m[1]!, fromHtml(m[2]!)]),
  );
  const parts: Part[] = [
    { name: 'csrf', value: csrf ?? '' },
    ...Object.entries({ ...prefilled, ...fields }).map(([name, value]) => ({ name, value })),
    ...files,
  ];
  const form = formData(parts);
  return ctx.app.inject({
    method: 'POST',
    url: `${trackPath}/return?lang=en`,
    headers: { ...form.headers, cookie: cookie ?? '', origin: 'http://localhost:80' },
    payload: form.payload,
  });
}
