import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { post, RATES } from '../../../test/kit/http.js';
import { FRI_0900_IST, forward } from '../../../test/rates-quotes.js';
import { DATA_DIR, loadRatesContext } from '../../data-files.js';

// The quote cache (rates.service.ts) keeps an answer for the minute it was made in. These check what
// it must never do: answer one rate card's quote after the card changed, or differ by account.

const DROPPED = 'CARDELHSURF01';
let first: TestContext;
let changed: TestContext;
let tempDir: string;

beforeAll(async () => {
  first = await createTestApp();
  first.clock.set(FRI_0900_IST);
  // A new rate card takes a restart: another app on the same database, with Delhivery Surface gone
  // and Xpressbees Standard's forward zone-A first slab ₹100 dearer.
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-rate-card-'));
  const card = JSON.parse(fs.readFileSync(path.join(DATA_DIR, 'couriers.json'), 'utf8'));
  card.couriers = card.couriers.filter((courier: { id: string }) => courier.id !== DROPPED);
  const xpressbees = card.couriers.find((courier: { id: string }) => courier.id === 'CARXPBSSTD001');
  xpressbees.prices.forward.A.first += 100;
  const couriersFile = path.join(tempDir, 'couriers.json');
  fs.writeFileSync(couriersFile, JSON.stringify(card));
  changed = await createTestApp({ database: first.database, rates: loadRatesContext({ couriersFile }) });
  changed.clock.set(FRI_0900_IST);
});
afterAll(async () => {
  await changed.app.close();
  await first.close();
  fs.rmSync(tempDir, { recursive: true, force: true });
});

// Mumbai → Mumbai Suburban: zone A.
const body = forward({
  origin_pincode: '400001',
  destination_pincode: '400050',
  payment_method: 'prepaid',
  dead_weight: 400,
});
type Entry = { carrier_id: string; charges: { forward_freight_charges: number } };
const entries = async (ctx: TestContext, apiKey: string): Promise<Entry[]> => {
  const response = await post(ctx, apiKey, RATES, body);
  expect(response.statusCode).toBe(200);
  return response.json().result.serviceable_couriers;
};
const freight = (list: Entry[], id: string) =>
  list.find((entry) => entry.carrier_id === id)?.charges.forward_freight_charges;

describe('POST /rates: the quote cache', () => {
  it('answers every account the same quote, priced once, and a second account gets exactly the first one’s bytes', async () => {
    const a = await first.createAccount('Cache A');
    const b = await first.createAccount('Cache B');
    const one = await post(first, a.apiKey, RATES, body);
    const again = await post(first, a.apiKey, RATES, body);
    const other = await post(first, b.apiKey, RATES, body);
    expect([one.statusCode, again.statusCode, other.statusCode]).toEqual([200, 200, 200]);
    expect(again.body).toBe(one.body);
    expect(other.body).toBe(one.body);
    // No account's anything in the answer that another could be handed.
    expect(one.body).not.toContain(a.id);
    expect(other.body).not.toContain(b.id);
  });

  it('a changed rate card is priced by its own process at once, while the old one keeps its cached quote in the same minute', async () => {
    const { apiKey } = await first.createAccount('Cache C');
    const before = await entries(first, apiKey);
    expect(freight(before, DROPPED)).toEqual(expect.any(Number));
    const oldXpressbees = freight(before, 'CARXPBSSTD001')!;

    const after = await entries(changed, apiKey);
    expect(after.map((entry) => entry.carrier_id)).not.toContain(DROPPED);
    expect(after).toHaveLength(before.length - 1);
    expect(freight(after, 'CARXPBSSTD001')).toBe(oldXpressbees + 100);
    // The first process still answers from its own card (and cache): the same bytes as before.
    expect(await entries(first, apiKey)).toEqual(before);
  });
});
