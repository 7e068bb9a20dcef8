import { describe, expect, it } from 'vitest';
import { type OutboundRules, refusalOf, resolveTarget, UnresolvedHost, urlProblem } from './outbound-url.js';

const REFUSED =
  'a loopback, private, link-local, reserved or IPv6-transition address (set WEBHOOK_ALLOW_PRIVATE=true to allow)';
const strict: OutboundRules = { allowHttp: false, allowPrivate: false };
const lax: OutboundRules = { allowHttp: true, allowPrivate: false };

describe('urlProblem', () => {
  const cases: [string, OutboundRules, string | null][] = [
    ['https://hooks.chaipoint.in/dakiya', strict, null],
    ['https://hooks.chaipoint.in:8443/dakiya?x=1', strict, null],
    [
      'http://hooks.chaipoint.in/dakiya',
      strict,
      'url must start with https:// (a receiver on your own machine or network: start the server with WEBHOOK_ALLOW_HTTP=true, and WEBHOOK_ALLOW_PRIVATE=true for a loopback or private address)',
    ],
    ['http://hooks.chaipoint.in/dakiya', lax, null],
    ['ftp://hooks.chaipoint.in/dakiya', lax, 'url must start with https:// or http://'],
    ['file:///etc/passwd', strict, 'url must start with https://'],
    ['hooks.chaipoint.in/dakiya', strict, 'url must be an absolute URL, e.g. https://hooks.example.in/dakiya'],
    ['https://ravi:secret@hooks.chaipoint.in/', strict, 'url must not carry a user name or password'],
    ['https://hooks.chaipoint.in/#top', strict, 'url must not have a #fragment'],
    ['https://13.235.1.1/hooks', strict, null],
  ];
  for (const [url, rules, problem] of cases) {
    it(`${url} (http ${rules.allowHttp ? 'allowed' : 'refused'})`, () => expect(urlProblem(url, rules)).toBe(problem));
  }

  it("refuses the audit's targets by their form alone, without DNS, naming the field", () => {
    const cases: [string, string][] = [
      ['http://127.0.0.1:4231/internal/admin?q=', `base_url host 127.0.0.1 resolves to 127.0.0.1, ${REFUSED}`],
      [
        'http://169.254.169.254/latest/meta-data',
        `base_url host 169.254.169.254 resolves to 169.254.169.254, ${REFUSED}`,
      ],
      ['http://[::1]', `base_url host ::1 resolves to ::1, ${REFUSED}`],
      ['http://[fd00:ec2::254]/latest/meta-data', `base_url host fd00:ec2::254 resolves to fd00:ec2::254, ${REFUSED}`],
      ['http://10.0.0.1', `base_url host 10.0.0.1 resolves to 10.0.0.1, ${REFUSED}`],
      ['http://0.0.0.0:8080/', `base_url host 0.0.0.0 resolves to 0.0.0.0, ${REFUSED}`],
      ['http://224.0.0.1/', `base_url host 224.0.0.1 resolves to 224.0.0.1, ${REFUSED}`],
      ['http://localhost', 'base_url host localhost is this machine (set WEBHOOK_ALLOW_PRIVATE=true to allow)'],
      ['http://LOCALHOST:4231/', 'base_url host localhost is this machine (set WEBHOOK_ALLOW_PRIVATE=true to allow)'],
      ['http://localhost./', 'base_url host localhost. is this machine (set WEBHOOK_ALLOW_PRIVATE=true to allow)'],
      [
        'http://admin.localhost/',
        'base_url host admin.localhost is this machine (set WEBHOOK_ALLOW_PRIVATE=true to allow)',
      ],
      [
        'http://[::ffff:127.0.0.1]/',
        `base_url host ::ffff:7f00:1 resolves to ::ffff:7f00:1 (which carries 127.0.0.1), ${REFUSED}`,
      ],
      [
        'http://[2002:808:808::1]/',
        `base_url host 2002:808:808::1 resolves to 2002:808:808::1 (an IPv6 6to4 address), ${REFUSED}`,
      ],
    ];
    for (const [url, problem] of cases) expect(urlProblem(url, lax, 'base_url'), url).toBe(problem);
  });

  it('refuses an IPv4 address written in any but four decimal numbers, whatever it is read as', () => {
    const cases: [string, string, string][] = [
      ['http://2130706433/', '2130706433', '127.0.0.1'],
      ['http://0x7f000001/', '0x7f000001', '127.0.0.1'],
      ['http://0x7f.1/', '0x7f.1', '127.0.0.1'],
      ['http://017700000001/', '017700000001', '127.0.0.1'],
      ['http://0177.0.0.1/', '0177.0.0.1', '127.0.0.1'],
      ['http://127.1/', '127.1', '127.0.0.1'],
      ['http://%31%32%37.0.0.1/', '%31%32%37.0.0.1', '127.0.0.1'],
      ['http://0/', '0', '0.0.0.0'],
      ['http://0xa9.0xfe.0xa9.0xfe/latest/meta-data', '0xa9.0xfe.0xa9.0xfe', '169.254.169.254'],
      ['http://134744072/', '134744072', '8.8.8.8'],
      ['http://ravi@0x08080808:80/', '0x08080808', '8.8.8.8'],
    ];
    for (const [url, written, read] of cases) {
      // Even where the operator allows private targets: no provider is written so.
      for (const rules of [lax, { allowHttp: true, allowPrivate: true }]) {
        expect(urlProblem(url, rules, 'base_url'), url).toBe(
          url.includes('@')
            ? 'base_url must not carry a user name or password'
            : `base_url host ${written} must be a name or an IPv4 address as four decimal numbers (it is read as ${read})`,
        );
      }
    }
  });

  it('allows private targets and local names when the operator does', () => {
    const open = { allowHttp: true, allowPrivate: true };
    for (const url of ['http://127.0.0.1:4231/', 'http://localhost:4231/', 'http://[::1]/', 'http://10.0.0.1/'])
      expect(urlProblem(url, open), url).toBeNull();
  });
});

describe('resolveTarget', () => {
  const rules = (answers: string[]): OutboundRules => ({
    allowHttp: false,
    allowPrivate: false,
    lookup: async () => answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  });

  it('refuses a host name whose answers carry a refused IPv4 address in any IPv6 form, naming what it carries', async () => {
    const cases: [string, string][] = [
      ['::ffff:7f00:1', '(which carries 127.0.0.1)'],
      ['::7f00:1', '(which carries 127.0.0.1)'],
      ['2002:a9fe:a9fe::', '(which carries 169.254.169.254)'],
      ['64:ff9b::a9fe:a9fe', '(which carries 169.254.169.254)'],
      ['64:ff9b::7f00:1', '(which carries 127.0.0.1)'],
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', '(which carries 127.0.0.1)'],
      ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', '(an IPv6 Teredo address)'],
    ];
    for (const [answer, why] of cases) {
      await expect(
        resolveTarget('https://hooks.example.in/dakiya', rules(['13.235.1.1', answer])),
        answer,
      ).rejects.toThrow(`url host hooks.example.in resolves to ${answer} ${why}, ${REFUSED}`);
    }
  });

  it('refuses a name whose answers include a private address, even after a public one', async () => {
    await expect(
      resolveTarget('https://api.provider.example/v21.0', rules(['13.235.1.1', '10.0.0.7']), 'base_url'),
    ).rejects.toThrow(`base_url host api.provider.example resolves to 10.0.0.7, ${REFUSED}`);
  });

  it('allows public answers, the well-known NAT64 form of a public address included, and pins the first', async () => {
    const target = await resolveTarget('https://hooks.example.in/dakiya', rules(['64:ff9b::808:808', '13.235.1.1']));
    expect(target.addresses).toEqual([
      { address: '64:ff9b::808:808', family: 6 },
      { address: '13.235.1.1', family: 4 },
    ]);
    expect(target.url.host).toBe('hooks.example.in');
  });
});

describe('refusalOf', () => {
  const rules = (lookup: OutboundRules['lookup']): OutboundRules => ({ allowHttp: false, allowPrivate: false, lookup });
  const nowhere = rules(async (host) => {
    throw new Error(`ENOTFOUND ${host}`);
  });

  it('does not refuse a host that does not resolve (yet), while resolveTarget cannot send to it', async () => {
    expect(await refusalOf('https://hooks.later.example.in/dakiya', nowhere)).toBeNull();
    await expect(resolveTarget('https://hooks.later.example.in/dakiya', nowhere)).rejects.toThrow(
      new UnresolvedHost('url host hooks.later.example.in does not resolve'),
    );
    await expect(
      resolveTarget(
        'https://hooks.empty.example.in/',
        rules(async () => []),
      ),
    ).rejects.toThrow(new UnresolvedHost('url host hooks.empty.example.in does not resolve'));
  });

  it('names what refuses a URL: its scheme, or the private address it resolves to', async () => {
    expect(await refusalOf('http://hooks.later.example.in/dakiya', nowhere)).toMatch(
      /^url must start with https:\/\/ \(.*WEBHOOK_ALLOW_HTTP=true.*WEBHOOK_ALLOW_PRIVATE=true/,
    );
    expect(
      await refusalOf(
        'https://hooks.example.in/dakiya',
        rules(async () => [{ address: '10.0.0.7', family: 4 }]),
      ),
    ).toBe(`url host hooks.example.in resolves to 10.0.0.7, ${REFUSED}`);
    expect(
      await refusalOf(
        'https://hooks.example.in/dakiya',
        rules(async () => [{ address: '13.235.1.1', family: 4 }]),
      ),
    ).toBeNull();
  });
});
