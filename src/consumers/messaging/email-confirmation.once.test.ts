import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { authed, SHIPMENTS, V1 } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { type SmtpServer, startSmtpServer } from '../../../test/smtp-server.js';
import { until } from '../../../test/webhook-receiver.js';

let smtp: SmtpServer;
let ctx: TestContext;

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp({
    settings: {
      workers: { pollIntervalMs: 50 },
      mail: { smtpUrl: smtp.url, mailFrom: 'orders@dakiya.test' },
      messaging: { retryDelaysSeconds: [0.05, 0.05], timeoutMs: 5000 },
    },
    delivery: ['messaging'],
  });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

it("e-mails the confirmation in Hindi from the brand's name, with links to the answer page; an SMTP refusal is retried", async () => {
  const { apiKey } = await ctx.createAccount('Kurta Kart');
  const warehouseId = await createCityWarehouse(ctx, apiKey);
  const put = (url: string, payload: unknown) =>
    ctx.app.inject({ method: 'PUT', url, headers: authed(apiKey), payload: payload as object });
  expect((await put(`${V1}/messaging/channels/email`, { enabled: true })).statusCode).toBe(200);
  expect(
    (await put(`${V1}/messaging/confirmation-policy`, { mode: 'all_cod', channels: ['email'], language: 'hi' }))
      .statusCode,
  ).toBe(200);
  smtp.refuse(451);
  const booked = await book(ctx, apiKey, warehouseId, { cod: true, value: 1499, email: 'priya@example.com' });
  await until(() => smtp.to('priya@example.com').length > 0, 'the e-mail');
  const { mail } = smtp.to('priya@example.com')[0]!;
  expect(mail.from?.value).toEqual([{ name: 'Kurta Kart', address: 'orders@dakiya.test' }]);
  expect(mail.subject).toBe(`Kurta Kart: कृपया अपना ऑर्डर ${booked.channel_order_id} कन्फ़र्म करें`);
  const token = new URL(booked.track_url!).pathname.slice('/t/'.length);
  expect(mail.text).toContain(`ऑर्डर कन्फ़र्म करें: ${PUBLIC_BASE_URL}/t/${token}/confirmation?lang=hi&answer=confirm`);
  expect(mail.text).toContain(`ऑर्डर कैंसल करें: ${PUBLIC_BASE_URL}/t/${token}/confirmation?lang=hi&answer=cancel`);
  await until(
    async () =>
      (
        await ctx.app.inject({
          method: 'GET',
          url: `${SHIPMENTS}/${booked.shipment_id}/confirmation`,
          headers: authed(apiKey),
        })
      ).json().data.messages[0].status === 'sent',
    'the send to be recorded',
  );
  const [message] = (
    await ctx.app.inject({
      method: 'GET',
      url: `${SHIPMENTS}/${booked.shipment_id}/confirmation`,
      headers: authed(apiKey),
    })
  ).json().data.messages;
  expect(message).toMatchObject({
    channel: 'email',
    template: 'email',
    recipient: 'p****@example.com',
    attempts: 2,
    provider_message_id: null,
  });
  expect(message.last_error).toMatch(/^SMTP: .*451/);
});
