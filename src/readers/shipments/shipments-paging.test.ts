import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { MINUTE } from '../../../test/kit/http.js';
import { book, seedShipments } from '../../../test/kit/orders.js';
import { list, listIds, type Listing } from '../../../test/kit/shipments.js';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

/** Rows as the listing sorts them: created_at, then id, in `order`. */
function sorted(rows: { id: string; createdAt: string }[], order: 'asc' | 'desc') {
  const asc = [...rows].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  return (order === 'asc' ? asc : asc.reverse()).map((r) => r.id);
}

async function allRows(apiKey: string) {
  const { data } = await list(ctx, apiKey, { per_page: 100 });
  return data.map((s) => ({ id: s.id, createdAt: s.attributes.created_at }));
}

/** Follows next_search_after to the end; `between(page)` runs after each page is read. */
async function walk(
  apiKey: string,
  body: Record<string, unknown>,
  between: (page: number) => Promise<void> = async () => {},
) {
  const seen: string[] = [];
  let cursor: [string, string] | null = null;
  for (let page = 1; page < 100; page++) {
    const listing: Listing = await list(ctx, apiKey, { ...body, ...(cursor && { search_after: cursor }) });
    seen.push(...listing.data.map((s) => s.id));
    cursor = listing.meta.next_search_after;
    if (cursor) {
      const last = listing.data.at(-1)!;
      expect(cursor).toEqual([String(Date.parse(last.attributes.created_at)), last.id]);
    }
    await between(page);
    if (!cursor) return seen;
  }
  throw new Error('walk did not end');
}

describe('paging', () => {
  let apiKey: string;
  let rows: { id: string; createdAt: string }[];
  beforeAll(async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    // 25 shipments; #8–#12 share one created_at, so only the id orders them.
    const seeded = await seedShipments(ctx, 8);
    apiKey = seeded.apiKey;
    for (let i = 0; i < 5; i++) await book(ctx, apiKey, seeded.warehouseId);
    for (let i = 0; i < 12; i++) {
      ctx.clock.advance(MINUTE);
      await book(ctx, apiKey, seeded.warehouseId);
    }
    rows = await allRows(apiKey);
    expect(rows).toHaveLength(25);
    expect(new Set(rows.map((r) => r.createdAt)).size).toBe(21);
  });

  it('defaults to page 1 of 20, newest first, with the exact total and the cursor of the last row', async () => {
    const { data, meta } = await list(ctx, apiKey);
    const desc = sorted(rows, 'desc');
    expect(data.map((s) => s.id)).toEqual(desc.slice(0, 20));
    const last = rows.find((r) => r.id === desc[19])!;
    expect(meta).toEqual({
      current_page: 1,
      per_page: 20,
      total: 25,
      next_search_after: [String(Date.parse(last.createdAt)), last.id],
    });
    expect(meta.next_search_after![0]).toMatch(/^\d{13}$/);
  });

  it('sorts by created_at then id, in either order', async () => {
    expect(await listIds(ctx, apiKey, { sort_order: 'desc' })).toEqual(sorted(rows, 'desc'));
    expect(await listIds(ctx, apiKey, { sort_order: 'asc' })).toEqual(sorted(rows, 'asc'));
  });

  it('pages by page and per_page (offset)', async () => {
    const desc = sorted(rows, 'desc');
    const asc = sorted(rows, 'asc');
    const page = (body: Record<string, unknown>) => list(ctx, apiKey, body);
    const p2 = await page({ page: 2 });
    expect(p2.data.map((s) => s.id)).toEqual(desc.slice(20));
    expect(p2.meta).toEqual({ current_page: 2, per_page: 20, total: 25, next_search_after: null });
    const p3 = await page({ page: 3, per_page: 4 });
    expect(p3.data.map((s) => s.id)).toEqual(desc.slice(8, 12));
    expect(p3.meta.current_page).toBe(3);
    expect(p3.meta.per_page).toBe(4);
    expect((await page({ page: 2, per_page: 10, sort_order: 'asc' })).data.map((s) => s.id)).toEqual(asc.slice(10, 20));
    const beyond = await page({ page: 9 });
    expect(beyond.data).toEqual([]);
    expect(beyond.meta).toEqual({ current_page: 9, per_page: 20, total: 25, next_search_after: null });
  });

  it('next_search_after is null on the last page, also when it is exactly full', async () => {
    expect((await list(ctx, apiKey, { per_page: 25 })).meta.next_search_after).toBeNull();
    expect((await list(ctx, apiKey, { per_page: 100 })).meta.next_search_after).toBeNull();
    expect((await list(ctx, apiKey, { per_page: 24 })).meta.next_search_after).not.toBeNull();
    const last = await list(ctx, apiKey, { per_page: 5, page: 5 });
    expect(last.data).toHaveLength(5);
    expect(last.meta.next_search_after).toBeNull();
    expect((await list(ctx, apiKey, { per_page: 1 })).data).toHaveLength(1);
  });

  it.each(['desc', 'asc'] as const)(
    'walking with search_after (%s, 4 per page) yields every row once, in order',
    async (order) => {
      expect(await walk(apiKey, { per_page: 4, sort_order: order })).toEqual(sorted(rows, order));
    },
  );

  it('search_after continues strictly after the row, whatever page says', async () => {
    const desc = sorted(rows, 'desc');
    const at = rows.find((r) => r.id === desc[9])!;
    const after = await list(ctx, apiKey, {
      per_page: 3,
      search_after: [String(Date.parse(at.createdAt)), at.id],
      page: 7,
    });
    expect(after.data.map((s) => s.id)).toEqual(desc.slice(10, 13));
    expect(after.meta.current_page).toBe(7);
    expect(after.meta.total).toBe(25);
    // A cursor past the end gives an empty last page.
    const oldest = rows.find((r) => r.id === desc[24])!;
    const none = await list(ctx, apiKey, { search_after: [String(Date.parse(oldest.createdAt)), oldest.id] });
    expect(none.data).toEqual([]);
    expect(none.meta.next_search_after).toBeNull();
  });
});

describe('search_after while new shipments are created', () => {
  it('newest-first: the walk yields exactly the rows that existed, each once', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const { apiKey, warehouseId } = await seedShipments(ctx, 25);
    const before = await allRows(apiKey);
    const seen = await walk(apiKey, { per_page: 4 }, async (page) => {
      // Newer than everything the walk has to go through: they sort before its cursor.
      if (page <= 6) {
        ctx.clock.advance(MINUTE);
        await book(ctx, apiKey, warehouseId);
      }
    });
    expect(seen).toEqual(sorted(before, 'desc'));
    expect((await list(ctx, apiKey)).meta.total).toBe(31);
  });

  it('oldest-first: the walk also reaches the rows created behind it, each once, in order', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const { apiKey, warehouseId } = await seedShipments(ctx, 25);
    const seen = await walk(apiKey, { per_page: 4, sort_order: 'asc' }, async (page) => {
      if (page <= 4) {
        ctx.clock.advance(MINUTE);
        await book(ctx, apiKey, warehouseId);
        await book(ctx, apiKey, warehouseId);
      }
    });
    const after = await allRows(apiKey);
    expect(after).toHaveLength(33);
    expect(seen).toEqual(sorted(after, 'asc'));
    expect(new Set(seen).size).toBe(33);
  });

  it('offset paging, by contrast, shifts when rows are added (why search_after exists)', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const { apiKey, warehouseId } = await seedShipments(ctx, 8);
    const first = await listIds(ctx, apiKey, { per_page: 4 });
    ctx.clock.advance(MINUTE);
    await book(ctx, apiKey, warehouseId);
    const second = await listIds(ctx, apiKey, { per_page: 4, page: 2 });
    expect(second[0]).toBe(first[3]);
  });
});
