import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pdfText } from './kit/labels.js';

// Runs `npm run demo` (its script builds dist/ and execs node dist/demo.js) as a user would, with a half-second sandbox
// clock and poller, so that every scenario reaches its end (up to ten steps, each pulled by the
// poller) in seconds; a faster poller only slows the bookings it competes with for the database. It opens its own embedded database, not the test engines', so it runs once,
// with the unit tests.
describe('npm run demo', () => {
  it('starts from nothing, prints the panel with its sign-in, the key, docs and a tracking link, and its shipments reach every scenario’s end state', async () => {
    const child = spawn('npm', ['run', '--silent', 'demo'], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        SANDBOX_STEP_SECONDS: '0.5',
        TRACKING_POLL_SECONDS: '0.5',
        PUBLIC_BASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    try {
      while (!out.includes('Tracking link:')) {
        if (child.exitCode !== null) throw new Error(`demo exited: ${out}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const apiKey = /API key: +(\S+)/.exec(out)![1]!;
      const docs = /API docs: +(\S+)/.exec(out)![1]!;
      expect(docs).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs$/);
      // The customer's page of the first shipment, which answers with the store's brand.
      const trackUrl = /Tracking link: +(http:\/\/127\.0\.0\.1:\d+\/t\/[A-Za-z0-9_-]{22,64})\n/.exec(out)![1]!;
      const page = await fetch(trackUrl);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Chai Point');
      const base = docs.replace(/\/docs$/, '');
      const post = async (path: string, body: object): Promise<unknown> => {
        const response = await fetch(`${base}/custom/api/v1${path}`, {
          method: 'POST',
          headers: { authorization: apiKey, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return response.json();
      };
      expect((await fetch(docs)).status).toBe(200);
      // The panel, and a sign-in with the printed credentials.
      // The allocation rules chose each of the four couriers whose APIs the simulators speak.
      const allocated = out.slice(out.indexOf('Allocation:')).split('\n').slice(1, 9);
      expect(
        allocated
          .map(
            (line) =>
              /^ {2}\S+ +(Delhivery Surface|Ekart Standard|Xpressbees Standard|Shadowfax Standard) /.exec(line)?.[1],
          )
          .sort(),
      ).toEqual([
        'Delhivery Surface',
        'Delhivery Surface',
        'Ekart Standard',
        'Ekart Standard',
        'Shadowfax Standard',
        'Xpressbees Standard',
        'Xpressbees Standard',
        'Xpressbees Standard',
      ]);
      expect(allocated[2]).toContain(
        "Cash on delivery: Delhivery first: Delhivery Surface is number 1 of the rule's priority list",
      );
      const [, panel, username, password] = /Panel: +(\S+) +\(username (\S+), password (\S+)\)/.exec(out)!;
      expect(panel).toBe(`${base}/app`);
      expect((await fetch(panel!)).headers.get('content-security-policy')).toContain("script-src 'self'");
      const signIn = await fetch(`${base}/panel/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      expect(signIn.status).toBe(200);
      expect(((await signIn.json()) as { account: { name: string } }).account.name).toBe('Chai Point Retail');
      // The team: each member signs in with the printed password and holds their role's permissions only.
      const [, teamPassword] =
        /Team: +ops@chaipoint\.example \(operations, the chai-point store only\), finance@chaipoint\.example \(finance\); password (\S+)/.exec(
          out,
        )!;
      for (const [email, role, money] of [
        ['ops@chaipoint.example', 'operations', 403],
        ['finance@chaipoint.example', 'finance', 200],
      ] as const) {
        const member = await fetch(`${base}/panel/v1/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: email, password: teamPassword }),
        });
        const signedIn = (await member.json()) as { member: { role: string }; csrf_token: string };
        expect(signedIn.member.role).toBe(role);
        const cookie = member.headers.get('set-cookie')!.split(';')[0]!;
        const refunds = await fetch(`${base}/custom/api/v1/refunds`, { headers: { cookie } });
        expect([email, refunds.status]).toEqual([email, money]);
        if (role !== 'operations') continue;
        // Limited to the chai-point store: the Shopify and WooCommerce stores' orders are not theirs.
        const theirs = await fetch(`${base}/custom/api/v1/shipments`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json', origin: base, 'x-csrf-token': signedIn.csrf_token },
          body: JSON.stringify({ per_page: 100 }),
        });
        const rows = ((await theirs.json()) as { data: { attributes: { order: { channel: string } } }[] }).data;
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.filter((row) => ['shopify', 'woocommerce'].includes(row.attributes.order.channel))).toEqual([]);
      }

      type Listed = {
        data: {
          attributes: {
            order: { display_id: string; channel: string };
            tracking_number: string;
            status: string;
            sub_status: string;
            test_mode: boolean;
            label_url: string;
          };
        }[];
      };
      // The demo's own bookings: the stores' orders (sales channels) are checked apart, below.
      const listed = async (): Promise<Listed> => {
        const all = (await post('/shipments', { per_page: 100 })) as Listed;
        return { data: all.data.filter((s) => !['shopify', 'woocommerce'].includes(s.attributes.order.channel)) };
      };
      const ends = async () =>
        (await listed()).data.map((s) => `${s.attributes.status}/${s.attributes.sub_status}`).sort();
      const waitFor = async (expected: string[]) => {
        let seen: string[] = [];
        for (let i = 0; i < 360 && JSON.stringify(seen) !== JSON.stringify(expected); i++) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          seen = await ends();
        }
        expect(seen).toEqual(expected);
      };
      // The sandbox's twelve (ten delivered, one lost, one RTO), the replacement of its exchange
      // (delivered) and the order delivered at once whose buyer asked for a return, the eight booked
      // through the courier simulators, each moved to delivered by its courier's scans, and four more
      // whose first delivery failed, each courier with its own reason, waiting for a decision.
      const delivered = [...Array(20).fill('delivered/delivered'), 'others/lost', 'rto_delivered/rto_delivered'];
      await waitFor(
        [
          ...delivered,
          'ndr_raised/premises_closed',
          'ndr_raised/customer_unavailable',
          'ndr_raised/address_incomplete',
          'ndr_raised/future_delivery_requested',
        ].sort(),
      );
      // Every booking through a simulator is a test booking, as every sandbox one is.
      const shipments = (await listed()).data;
      expect(shipments.filter((s) => !s.attributes.test_mode)).toEqual([]);
      const connections = (await fetch(`${base}/custom/api/v1/courier-connections`, {
        headers: { authorization: apiKey },
      }).then((r) => r.json())) as { data: { connector: string; test_bookings: boolean }[] };
      expect(connections.data.filter((c) => !c.test_bookings)).toEqual([]);
      // A label of one, banded as every test label is.
      const ekart = shipments.find((s) => s.attributes.order.display_id === 'DEMO-2002')!;
      const label = Buffer.from(await (await fetch(ekart.attributes.label_url)).arrayBuffer());
      expect(await pdfText(label)).toContain('TEST — NOT A COURIER LABEL');
      // They wait as long as the merchant takes: a while later they are still in the queue.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const waiting = (await listed()).data.filter((s) => s.attributes.status === 'ndr_raised');
      expect(waiting.map((s) => s.attributes.order.display_id).sort()).toEqual([
        'DEMO-3001',
        'DEMO-3002',
        'DEMO-3003',
        'DEMO-3004',
      ]);
      // The merchant decides: two more attempts, two returns; each courier acts once it has the instruction.
      for (const [i, s] of waiting.entries()) {
        const action = await fetch(`${base}/custom/api/v1/${i % 2 === 0 ? 'reattempt' : 'initiate-rto'}`, {
          method: 'POST',
          headers: { authorization: apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ awb: s.attributes.tracking_number }),
        });
        expect(action.status, await action.text()).toBe(200);
      }
      await waitFor(
        [
          ...delivered,
          'delivered/delivered',
          'delivered/delivered',
          'rto_delivered/rto_delivered',
          'rto_delivered/rto_delivered',
        ].sort(),
      );

      // A delivered order with its buyer's return request pending in the queue, and the buyer's page showing it.
      const returnsLine =
        /Returns: +DEMO-4001 delivered; its buyer's request (\S+) waits .* the buyer's page: (\S+)$/m.exec(out)!;
      const queue = (await fetch(`${base}/custom/api/v1/return-requests?status=pending`, {
        headers: { authorization: apiKey },
      }).then((r) => r.json())) as { data: { id: string; reason: string; resolution: string }[] };
      expect(queue.data).toEqual([
        expect.objectContaining({ id: returnsLine[1], reason: 'quality_issue', resolution: 'refund' }),
      ]);
      const buyerPage = await fetch(returnsLine[2]!, { headers: { 'accept-language': 'en' } });
      expect(buyerPage.status).toBe(200);
      expect(await buyerPage.text()).toContain('Being reviewed by the store');

      // An exchange in flight: DEMO-1001's size swap, its replacement delivered among the sandbox's.
      const exchangeLine = /Exchange: +DEMO-1001 swapped: replacement (\S+), pickup (\S+) /.exec(out)!;
      const exchanges = (await post('/exchange-orders', {})) as {
        data: { attributes: { display_id: string; forward_shipment: unknown; return_shipment: unknown } }[];
      };
      expect(exchanges.data).toHaveLength(1);
      expect(exchanges.data[0]!.attributes).toMatchObject({
        display_id: 'DEMO-1001',
        forward_shipment: { data: { attributes: { tracking_number: exchangeLine[1], status: 'delivered' } } },
        return_shipment: { data: { attributes: { tracking_number: exchangeLine[2] } } },
      });

      const stores = (await fetch(`${base}/custom/api/v1/client-stores`, { headers: { authorization: apiKey } }).then(
        (r) => r.json(),
      )) as {
        data: { store_name: string; brand_name: string; logo_url: string }[];
      };
      const chaiPoint = stores.data.find((s) => s.store_name === 'chai-point');
      expect(chaiPoint).toMatchObject({ store_name: 'chai-point', brand_name: 'Chai Point' });
      expect(chaiPoint!.logo_url).toMatch(/\/public\/v1\/store-logos\//);

      // A Shopify shop and a WooCommerce site feed two more stores: connected, their waiting orders
      // imported at once (Shopify's booked by the rules), and new ones arriving by webhook.
      const storeLines = out.slice(out.indexOf('Stores:')).split('\n').slice(1, 3);
      expect(storeLines.map((line) => line.trim().split(/ +/).slice(0, 2))).toEqual([
        ['chai-point-shopify', 'shopify'],
        ['chai-point-woo', 'woocommerce'],
      ]);
      type Channels = {
        data: { channel: string; store_name: string; status: string; counts: { imported: number; refused: number } }[];
      };
      const channels = async () =>
        (
          (await fetch(`${base}/custom/api/v1/channels`, { headers: { authorization: apiKey } }).then((r) =>
            r.json(),
          )) as Channels
        ).data.sort((a, b) => a.channel.localeCompare(b.channel));
      const connected = await channels();
      expect(connected.map((c) => [c.channel, c.store_name, c.status])).toEqual([
        ['shopify', 'chai-point-shopify', 'connected'],
        ['woocommerce', 'chai-point-woo', 'connected'],
      ]);
      for (const c of connected) {
        expect(c.counts.imported, c.channel).toBeGreaterThanOrEqual(4);
        expect(c.counts.refused, c.channel).toBe(0);
      }
      const imported = (await post('/shipments', { per_page: 100 })) as Listed;
      const storeOrders = imported.data.filter((s) => ['shopify', 'woocommerce'].includes(s.attributes.order.channel));
      // At least those counted (another may have come in since).
      expect(storeOrders.length).toBeGreaterThanOrEqual(connected[0]!.counts.imported + connected[1]!.counts.imported);
      // Shopify's are booked on import, through the allocation rules; WooCommerce's wait in the queue.
      for (const s of storeOrders)
        expect([s.attributes.order.channel, s.attributes.tracking_number === null]).toEqual([
          s.attributes.order.channel,
          s.attributes.order.channel === 'woocommerce',
        ]);
      // npm's own child is the demo itself (the script execs node, no tsx or shell in between), so
      // the SIGTERM a process manager sends npm reaches it.
      const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/);
      expect(children).toHaveLength(1);
      expect(readFileSync(`/proc/${children[0]}/cmdline`, 'utf8').split('\0').slice(1, 2)).toEqual(['dist/demo.js']);
    } finally {
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    }
  }, 300_000);
});
