import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buttonReplies, validSignature } from './whatsapp.channel.js';

// What an inbound WhatsApp webhook is read for: the buyers' taps on our buttons, and nothing else,
// whatever else the Cloud API sends or a stranger posts (entry[].changes[].value.messages[], Meta's
// webhook shape). The replies' effect on a shipment: messaging.once.test.ts.

const change = (messages: unknown) => ({
  entry: [{ changes: [{ value: { messaging_product: 'whatsapp', messages } }] }],
});

describe('the button replies of an inbound WhatsApp webhook', () => {
  it('reads a template quick reply and an interactive button reply, each with its sender and message id', () => {
    expect(
      buttonReplies(
        change([
          { from: '919123456780', id: 'wamid.A', type: 'button', button: { payload: 'confirm:s1', text: 'Confirm' } },
          {
            from: '919123456781',
            id: 'wamid.B',
            type: 'interactive',
            interactive: { type: 'button_reply', button_reply: { id: 'cancel:s2', title: 'Cancel' } },
          },
        ]),
      ),
    ).toEqual([
      { from: '919123456780', messageId: 'wamid.A', payload: 'confirm:s1' },
      { from: '919123456781', messageId: 'wamid.B', payload: 'cancel:s2' },
    ]);
  });

  it('leaves out text messages, replies without a sender or payload, and empty entries; a reply without an id keeps an empty one', () => {
    expect(
      buttonReplies(
        change([
          null,
          { from: '919123456780', id: 'wamid.T', type: 'text', text: { body: 'hello' } },
          { id: 'wamid.N', type: 'button', button: { payload: 'confirm:s1' } },
          { from: '919123456780', id: 'wamid.P', type: 'button', button: {} },
          { from: '919123456780', id: 'wamid.I', type: 'interactive', interactive: { type: 'list_reply' } },
          { from: '919123456782', type: 'button', button: { payload: 'confirm:s3' } },
        ]),
      ),
    ).toEqual([{ from: '919123456782', messageId: '', payload: 'confirm:s3' }]);
  });

  it('finds none in a body of another shape: statuses only, no entries, entries without changes or messages', () => {
    const statuses = { entry: [{ changes: [{ value: { statuses: [{ id: 'wamid.S', status: 'delivered' }] } }] }] };
    for (const body of [
      statuses,
      {},
      null,
      'entry',
      { entry: 'x' },
      { entry: [{}, { changes: 'x' }] },
      { entry: [{ changes: [{}, { value: { messages: 'x' } }] }] },
    ])
      expect(buttonReplies(body), JSON.stringify(body)).toEqual([]);
  });
});

describe("the inbound webhook's signature", () => {
  const body = JSON.stringify(change([]));
  const signed = `sha256=${createHmac('sha256', 'app-secret').update(body).digest('hex')}`;

  it('holds when X-Hub-Signature-256 is sha256= and the HMAC of the raw body with the app secret', () => {
    expect(validSignature(body, signed, 'app-secret')).toBe(true);
  });

  it('fails without the header, without its sha256= prefix, with another secret or another body', () => {
    expect(validSignature(body, undefined, 'app-secret')).toBe(false);
    expect(validSignature(body, signed.slice('sha256='.length), 'app-secret')).toBe(false);
    expect(validSignature(body, signed, 'another-secret')).toBe(false);
    expect(validSignature(`${body} `, signed, 'app-secret')).toBe(false);
  });
});
