import { describe, expect, it } from 'vitest';
import type { DeliveredItem, Refusal, RefusalCode } from '../return-requests/return-request-rules.js';
import { dayName } from './page-text.js';
import { LANGUAGES } from './page-words.js';
import { RETURN_REASONS } from '../return-requests/return-reasons.js';
import { RETURN_REASON_WORDS } from './return-reason-words.js';
import { refusalText } from './return-request-words.js';

const ITEMS: DeliveredItem[] = [
  { sku: 'KURTA-M-BLUE', name: 'Cotton Kurta', units: 3, category: 'Apparel' },
  { sku: 'EARRINGS-GOLD', name: 'Gold Earrings', units: 1, category: 'Jewellery' },
];

const EVERY_REFUSAL: Refusal[] = [
  { code: 'requests_off', field: 'order' },
  { code: 'not_delivered', field: 'order' },
  { code: 'already_returned', field: 'order' },
  { code: 'window_closed', field: 'order', lastDay: '2026-11-27' },
  { code: 'no_items', field: 'items' },
  { code: 'item_not_in_order', field: 'items[0].sku', sku: 'SAREE-RED' },
  { code: 'item_repeated', field: 'items[1].sku', sku: 'KURTA-M-BLUE' },
  { code: 'quantity_invalid', field: 'items[0].quantity', sku: 'KURTA-M-BLUE' },
  { code: 'non_returnable_sku', field: 'items[0].sku', sku: 'KURTA-M-BLUE' },
  { code: 'non_returnable_category', field: 'items[0].sku', sku: 'EARRINGS-GOLD' },
  { code: 'request_open', field: 'items[0].sku', sku: 'KURTA-M-BLUE' },
  { code: 'quantity_over', field: 'items[0].quantity', sku: 'KURTA-M-BLUE', unitsLeft: 2 },
  { code: 'quantity_over', field: 'items[0].quantity', sku: 'KURTA-M-BLUE', unitsLeft: 0 },
  { code: 'reason_unknown', field: 'reason' },
  { code: 'too_many_photos', field: 'photos' },
  { code: 'refund_method_required', field: 'refund_to.method' },
  { code: 'refund_method_not_offered', field: 'refund_to.method' },
  { code: 'upi_id_invalid', field: 'refund_to.upi_id' },
  { code: 'account_holder_required', field: 'refund_to.account_holder' },
  { code: 'account_number_invalid', field: 'refund_to.account_number' },
  { code: 'ifsc_invalid', field: 'refund_to.ifsc' },
  { code: 'ifsc_unknown', field: 'refund_to.ifsc' },
];

describe("a refused return request, in the buyer's words", () => {
  const english: [RefusalCode, number | undefined, string][] = [
    ['requests_off', undefined, 'This store does not take return requests online. Please contact the seller.'],
    ['not_delivered', undefined, 'You can ask for a return once the order is delivered.'],
    ['already_returned', undefined, 'This order already has a return under way. Please contact the seller.'],
    ['window_closed', undefined, 'The last day to ask for a return of this order was Friday, 27 November.'],
    ['no_items', undefined, 'Choose at least one item to return.'],
    ['item_not_in_order', undefined, 'SAREE-RED is not part of this order.'],
    ['item_repeated', undefined, 'Cotton Kurta is chosen twice.'],
    ['quantity_invalid', undefined, 'Choose how many of Cotton Kurta to return.'],
    ['non_returnable_sku', undefined, 'Cotton Kurta cannot be returned.'],
    [
      'non_returnable_category',
      undefined,
      'Gold Earrings cannot be returned: the seller does not take back items of its kind.',
    ],
    ['request_open', undefined, 'A return of Cotton Kurta is already being reviewed.'],
    ['quantity_over', 2, 'You can return at most 2 of Cotton Kurta.'],
    ['quantity_over', 0, 'Cotton Kurta has already been asked for.'],
    ['reason_unknown', undefined, 'Choose a reason from the list.'],
    ['too_many_photos', undefined, 'Add at most 5 photos.'],
    ['refund_method_required', undefined, 'Choose how you would like your money back.'],
    ['upi_id_invalid', undefined, 'Please give a UPI id such as name@okaxis.'],
    ['account_number_invalid', undefined, 'A bank account number is 9 to 18 digits.'],
    ['ifsc_invalid', undefined, 'An IFSC is 11 characters, such as HDFC0001234.'],
    ['ifsc_unknown', undefined, 'This IFSC is not in the list of bank branches. Please check it.'],
  ];
  it.each(english)('%s (%s left) in English', (code, left, text) => {
    const refusal = EVERY_REFUSAL.find((r) => r.code === code && r.unitsLeft === left)!;
    expect(refusalText(refusal, ITEMS, 'en')).toBe(text);
  });

  it('in Hindi, naming the item, the units and the day in Hindi', () => {
    expect(
      refusalText(
        { code: 'quantity_over', field: 'items[0].quantity', sku: 'KURTA-M-BLUE', unitsLeft: 2 },
        ITEMS,
        'hi',
      ),
    ).toBe('आप Cotton Kurta के अधिकतम 2 नग वापस कर सकते हैं।');
    expect(refusalText({ code: 'window_closed', field: 'order', lastDay: '2026-11-27' }, ITEMS, 'hi')).toBe(
      'इस ऑर्डर की वापसी माँगने का आख़िरी दिन शुक्रवार, 27 नवंबर था।',
    );
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    'in %s, every refusal in words of its own, with the item, units and day it names',
    (language) => {
      const texts = EVERY_REFUSAL.map((refusal) => refusalText(refusal, ITEMS, language));
      expect(new Set(texts).size).toBe(texts.length);
      for (const [i, refusal] of EVERY_REFUSAL.entries()) {
        const text = texts[i]!;
        // Never English left over, but for the item names the order gives.
        expect(
          text.replace(/Cotton Kurta|Gold Earrings|SAREE-RED|UPI|IFSC|name@okaxis|HDFC0001234/g, ''),
          text,
        ).not.toMatch(/[A-Za-z]/);
        if (refusal.code === 'account_number_invalid') expect(text).toMatch(/9.*18/);
        if (refusal.code === 'ifsc_invalid') expect(text).toContain('HDFC0001234');
        if (refusal.code === 'upi_id_invalid') expect(text).toContain('name@okaxis');
        if (refusal.sku === 'KURTA-M-BLUE') expect(text).toContain('Cotton Kurta');
        if (refusal.unitsLeft === 2) expect(text).toContain('2');
        if (refusal.code === 'window_closed') expect(text).toContain(dayName('2026-11-27', language));
        if (refusal.code === 'too_many_photos') expect(text).toContain('5');
      }
    },
  );
});

describe('the return reasons, in every language of the buyer pages', () => {
  it.each(LANGUAGES)('%s: each reason in words of its own', (language) => {
    const words = RETURN_REASONS.map((reason) => RETURN_REASON_WORDS[language][reason]);
    expect(new Set(words).size).toBe(RETURN_REASONS.length);
    if (language !== 'en') for (const said of words) expect(said).not.toMatch(/[A-Za-z]/);
  });
});
