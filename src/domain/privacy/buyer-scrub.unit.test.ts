import { describe, expect, it } from 'vitest';
import { type BuyerValues, buyerScrubber, collectBuyerValues, ERASED, noBuyerValues } from './buyer-scrub.js';

const ASHA: BuyerValues = {
  names: ['Asha', 'Menon', 'Asha Menon'],
  phones: ['9123456780', '+91 98765 43210'],
  emails: ['Asha.Menon@Example.com'],
  streets: ['12 Marine Drive, Flat 4B Sea View', 'Near Churchgate'],
};
const scrub = buyerScrubber(ASHA, ['Mumbai']);
const E = ERASED;

describe('buyerScrubber: every copy of the buyer in a text', () => {
  it.each([
    ['the name whole, before its parts', 'Delivered to ASHA MENON at door', `Delivered to ${E} at door`],
    ['each part alone', 'asha called; Menon answered', `${E} called; ${E} answered`],
    ['not inside another word', 'Ashaland Menonville Tasha', 'Ashaland Menonville Tasha'],
    ['the phone as stored', 'phone 9123456780.', `phone ${E}.`],
    ['the phone with a country code and spaces', 'call +91 91234 56780 now', `call ${E} now`],
    ['the phone with a trunk 0 and hyphens', '0912-345-6780', E],
    ['the phone with brackets', '(912) 345 6780', E],
    ['not inside a longer number', '191234567801', '191234567801'],
    ['the second phone, given as +91', '9876543210', E],
    ['the e-mail in any case', 'mail ASHA.MENON@example.COM, please', `mail ${E}, please`],
    ['the street reflowed', '12  marine drive,  flat 4b   sea view', E],
    ['a piece of the street on its own', 'addr: 12 Marine Drive', `addr: ${E}`],
    ['the second line', 'NEAR CHURCHGATE, Mumbai 400001', `${E}, Mumbai 400001`],
    ['a city given to keep stays', 'Mumbai', 'Mumbai'],
    ['a search column', '9123456780 asha menon asha.menon@example.com mumbai 400001', `${E} ${E} ${E} mumbai 400001`],
    ['Devanagari names', 'आशा', 'आशा'],
  ])('%s', (_case, input, expected) => {
    expect(scrub.text(input)).toBe(expected);
  });

  it('erases names in any script, as whole words', () => {
    const hindi = buyerScrubber({ ...noBuyerValues(), names: ['आशा मेनन'] });
    expect(hindi.text('प्राप्तकर्ता आशा मेनन')).toBe(`प्राप्तकर्ता ${E}`);
  });

  it('takes a name or street piece too short to say anything as nothing', () => {
    const short = buyerScrubber({ ...noBuyerValues(), names: ['K', ' '], streets: ['Flat 1, B'] });
    expect(short.text('Block K, B wing')).toBe('Block K, B wing');
    expect(short.empty).toBe(false);
    expect(buyerScrubber(noBuyerValues()).empty).toBe(true);
    expect(buyerScrubber(noBuyerValues()).text('anything')).toBe('anything');
  });

  it('reads values with special characters literally', () => {
    const odd = buyerScrubber({ ...noBuyerValues(), names: ["D'Souza (Jr.)"], streets: ['Plot 7+8 [rear]'] });
    expect(odd.text("Mr D'Souza (Jr.) of Plot 7+8 [rear]")).toBe(`Mr ${E} of ${E}`);
    expect(odd.text('DXSouza (JrX)')).toBe('DXSouza (JrX)');
  });

  it('answers the phones as ten digits and the e-mails lower-cased, once each', () => {
    const twice = buyerScrubber({ ...ASHA, phones: [...ASHA.phones, '09123456780', 'not a phone'] });
    expect(twice.phones).toEqual(['9123456780', '9876543210']);
    expect(twice.emails).toEqual(['asha.menon@example.com']);
  });
});

describe('buyerScrubber: JSON keeps its shape', () => {
  it('scrubs strings at any depth and a phone sent as a number, never a key', () => {
    const body = {
      billing_customer_name: 'Asha',
      billing_phone: 9123456780,
      amount: 998,
      Asha: 'key stays',
      items: [{ name: 'Cotton Kurta', note: 'gift for Asha Menon' }],
      nested: { deep: ['+919123456780', null, true] },
    };
    expect(scrub.json(body)).toEqual({
      billing_customer_name: E,
      billing_phone: E,
      amount: 998,
      Asha: 'key stays',
      items: [{ name: 'Cotton Kurta', note: `gift for ${E}` }],
      nested: { deep: [E, null, true] },
    });
  });
});

describe('collectBuyerValues: the buyer in bodies Dakiya keeps', () => {
  it.each([
    [
      "Velocity's flat order fields",
      {
        billing_customer_name: 'Asha',
        billing_last_name: 'Menon',
        billing_phone: 9123456780,
        shipping_address: '12 Marine Drive',
      },
      { names: ['Asha', 'Menon'], phones: ['9123456780'], emails: [], streets: ['12 Marine Drive'] },
    ],
    [
      "a return's pickup object",
      { pickup: { name: 'Asha', phone: '9123456780', email: 'a@x.in', address: '12 Marine Drive', city: 'Mumbai' } },
      { names: ['Asha'], phones: ['9123456780'], emails: ['a@x.in'], streets: ['12 Marine Drive'] },
    ],
    [
      "Shopify's order",
      {
        email: 'shop@x.in',
        shippingAddress: {
          firstName: 'Asha',
          lastName: 'Menon',
          address1: '12 Marine Drive',
          phone: '+91 91234 56780',
        },
        customer: { email: 'a@x.in', default_address: { address1: 'Old Road 5' } },
      },
      {
        names: ['Asha', 'Menon'],
        phones: ['+91 91234 56780'],
        emails: ['a@x.in'],
        streets: ['12 Marine Drive', 'Old Road 5'],
      },
    ],
    [
      "an NDR instruction's new address and phone",
      { updated_address: 'New Lane 9', updated_phone_number: '9876543210', comments: 'call first' },
      { names: [], phones: ['9876543210'], emails: [], streets: ['New Lane 9'] },
    ],
    ['plain fields outside an address are not a buyer', { name: 'Cotton Kurta', phone: '1800123456' }, noBuyerValues()],
  ])('%s', (_case, body, expected) => {
    expect(collectBuyerValues(body)).toEqual(expected);
  });
});

describe('buyerScrubber: what is kept', () => {
  it("keeps the merchant's own values though a body named them the buyer's", () => {
    const kept = buyerScrubber(
      {
        names: ['Asha', 'Main Warehouse'],
        phones: ['9123456780', '022 1234 5678'],
        emails: ['a@x.in', 'ops@shop.in'],
        streets: [],
      },
      ['main warehouse', '02212345678', 'OPS@shop.in'],
    );
    expect(kept.phones).toEqual(['9123456780']);
    expect(kept.emails).toEqual(['a@x.in']);
    expect(kept.text('Asha via Main Warehouse, 022 1234 5678, ops@shop.in')).toBe(
      `${ERASED} via Main Warehouse, 022 1234 5678, ops@shop.in`,
    );
  });
});
