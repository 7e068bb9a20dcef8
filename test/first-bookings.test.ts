import path from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../src/base/db/client.js';
import { migrate } from '../src/base/db/migrate.js';
import { type DeliveryWorker, startDeliveryWorker } from '../src/delivery-worker.js';
import { createTestApp, type TestContext, testSettings } from './app.js';
import { eventsSettled } from './databases.js';
import { authed, SHIPMENTS, V1 } from './kit/http.js';
import { book } from './kit/orders.js';
import { createCityWarehouse } from './kit/warehouses.js';
import { ROOT } from './server-process.js';
import { type SmtpServer, startSmtpServer } from './smtp-server.js';
import { until } from './webhook-receiver.js';
import {
  startWhatsAppSimulator,
  WA_APP_SECRET,
  WA_PHONE_NUMBER_ID,
  WA_TOKEN,
  type WhatsAppSimulator,
} from './whatsapp-simulator.js';

/**
 * A new install owes its buyers everything from its first event. The senders used to make their
 * cursors at their first read, after the events recorded until then: on PostgreSQL the delivery
 * thread starts once the server listens, so the bookings of about its first second never got
 * their e-mails, nor a COD order its WhatsApp confirmation. Here the server's API (an app whose
 * senders run elsewhere, as an API process's do on PostgreSQL) takes the bookings first, and only
 * then does the delivery worker the thread runs (`startDeliveryWorker`) start: no timing decides.
 */

let smtp: SmtpServer;
let wa: WhatsAppSimulator;
let ctx: TestContext;
let worker: DeliveryWorker | undefined;

const settings = () => ({
  workers: { pollIntervalMs: 50 },
  mail: { smtpUrl: smtp.url, mailFrom: 'updates@dakiya.test' },
  notifications: { retryDelaysSeconds: [0.05], timeoutMs: 5000 },
  messaging: { whatsappBaseUrl: wa.baseUrl, retryDelaysSeconds: [0.05], timeoutMs: 5000 },
});

const cursors = async () =>
  queryRows<{ name: string; txid: string; position: string }>(
    ctx.database.db,
    sql`select name, after_txid::text as txid, after_position::text as position from event_consumers order by name`,
  );

beforeAll(async () => {
  [smtp, wa] = await Promise.all([startSmtpServer(), startWhatsAppSimulator()]);
  ctx = await createTestApp({ settings: settings() });
});
afterAll(async () => {
  await worker?.stop();
  await ctx.close();
  await Promise.all([smtp.close(), wa.close()]);
});

it('a new database has every consumer’s cursor at the beginning of its event log', async () => {
  expect(await cursors()).toEqual(
    ['buyer-messaging', 'channel-writeback', 'ndr-rules', 'notifications', 'webhooks'].map((name) => ({
      name,
      txid: '0',
      position: '0',
    })),
  );
});

it('bookings taken before the senders first run get every e-mail, and the COD order its WhatsApp confirmation', async () => {
  const { apiKey } = await ctx.createAccount('Kurta Kart');
  const put = async (url: string, payload: object) => {
    const response = await ctx.app.inject({ method: 'PUT', url, headers: authed(apiKey), payload });
    expect(response.statusCode, response.body).toBe(200);
  };
  await put(`${V1}/messaging/channels/whatsapp`, {
    enabled: true,
    phone_number_id: WA_PHONE_NUMBER_ID,
    access_token: WA_TOKEN,
    app_secret: WA_APP_SECRET,
    verify_token: 'kurta-kart-verify',
    confirmation_template: { en: 'cod_confirm_en' },
  });
  await put(`${V1}/messaging/confirmation-policy`, { mode: 'all_cod', channels: ['whatsapp'], language: 'en' });
  const warehouseId = await createCityWarehouse(ctx, apiKey);
  const prepaid = await book(ctx, apiKey, warehouseId, { email: 'asha@example.com' });
  const cod = await book(ctx, apiKey, warehouseId, {
    cod: true,
    value: 1499,
    email: 'ravi@example.com',
    phone: '9123456780',
  });
  await eventsSettled(ctx.database);
  // Nothing has read the log yet: every cursor is where the database began.
  expect((await cursors()).map((c) => c.position)).toEqual(['0', '0', '0', '0', '0']);

  worker = await startDeliveryWorker({
    settings: testSettings(settings()),
    db: ctx.database.db,
    log: pino({ level: 'silent' }),
    keepAlive: false,
    checkEndpoints: false,
  });
  const confirmation = async () =>
    (
      await ctx.app.inject({
        method: 'GET',
        url: `${SHIPMENTS}/${cod.shipment_id}/confirmation`,
        headers: authed(apiKey),
      })
    ).json().data;
  await until(
    async () => smtp.received.length === 2 && (await confirmation()).messages[0]?.status === 'sent',
    'the e-mails and the confirmation',
  );

  expect(
    smtp.received.map((r) => ({ to: r.to, subject: r.mail.subject })).sort((a, b) => a.to[0]!.localeCompare(b.to[0]!)),
  ).toEqual([
    { to: ['asha@example.com'], subject: `Your Kurta Kart order ${prepaid.channel_order_id} has shipped` },
    { to: ['ravi@example.com'], subject: `Your Kurta Kart order ${cod.channel_order_id} has shipped` },
  ]);
  expect(
    wa.sends.map((s) => ({ to: s.body.to, template: s.body.template.name, body: s.body.template.components[0] })),
  ).toEqual([
    {
      to: '919123456780',
      template: 'cod_confirm_en',
      body: {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Kurta Kart' },
          { type: 'text', text: cod.channel_order_id },
          { type: 'text', text: '1499' },
        ],
      },
    },
  ]);
  expect((await confirmation()).confirmation).toMatchObject({ outcome: 'pending', channel: 'whatsapp' });
});

it('an install upgraded with events: a consumer it never had starts after them, and the cursors it has stay', async () => {
  await worker?.stop();
  worker = undefined;
  await eventsSettled(ctx.database);
  // As before the cursors were made with the database: this install never had the NDR rules' one.
  await ctx.database.db.execute(sql`delete from event_consumers where name = 'ndr-rules'`);
  const made = readMigrationFiles({ migrationsFolder: path.join(ROOT, 'migrations') }).find((m) =>
    m.sql.some((statement) => statement.includes('INSERT INTO "event_consumers"')),
  )!;
  await ctx.database.db.execute(sql`delete from dakiya_migrations where hash = ${made.hash}`);
  const before = await cursors();

  expect(await migrate(ctx.database.db)).toBe(1);

  const [last] = await queryRows<{ txid: string; position: string }>(
    ctx.database.db,
    sql`select txid::text as txid, position::text as position from events order by events.txid desc, position desc limit 1`,
  );
  expect(await cursors()).toEqual(
    [...before, { name: 'ndr-rules', ...last! }].sort((a, b) => a.name.localeCompare(b.name)),
  );
});
