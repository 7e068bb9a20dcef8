import { describe, expect, it } from 'vitest';
import { embeddedIpv4, ipv6Bytes, isPrivateAddress, refusalOf, resolveTarget, type TargetRules, UnresolvedHostError, urlProblem } from './url-safety.js';

describe('isPrivateAddress', () => {
  const cases: [string, boolean][] = [
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['10.0.0.1', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.0.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['255.255.255.255', true],
    ['198.18.0.1', true],
    ['8.8.8.8', false],
    ['13.235.1.1', false],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd12:3456::1', true],
    ['ff02::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:8.8.8.8', false],
    ['2001:db8::1', true],
    ['2404:6800:4009:80b::200e', false],
    ['not an address', true],
    // IPv6 forms that carry an IPv4 address are judged by it.
    ['::ffff:7f00:1', true],
    ['::ffff:a9fe:a9fe', true],
    ['::ffff:808:808', false],
    ['::ffff:0:7f00:1', true],
    ['::ffff:0:808:808', false],
    ['::7f00:1', true],
    ['::127.0.0.1', true],
    ['::a9fe:a9fe', true],
    ['::a00:1', true],
    ['::808:808', false],
    ['2002:7f00:1::', true],
    ['2002:a9fe:a9fe::', true],
    ['2002:a9fe:a9fe:1:2:3:4:5', true],
    ['2002:c0a8:101::1', true],
    ['2002:808:808::1', false],
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::127.0.0.1', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['64:ff9b::a00:1', true],
    ['64:ff9b::808:808', false],
    ['64:ff9b:1:7f00:1::', true],
    ['64:ff9b:1::a9fe:a9fe', true],
    ['64:ff9b:1::808:808', true],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', true],
    ['2001:0:7f00:1:0:0:f7f7:f7f7', true],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', false],
    ['::1:7f00:1', true],
    ['fe80::1%eth0', true],
  ];
  for (const [address, refused] of cases) {
    it(`${address} → ${refused ? 'refused' : 'allowed'}`, () => expect(isPrivateAddress(address)).toBe(refused));
  }
});

describe('urlProblem', () => {
  const strict = { allowHttp: false, allowPrivate: false };
  const lax = { allowHttp: true, allowPrivate: false };
  const cases: [string, typeof strict, string | null][] = [
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
  ];
  for (const [url, rules, problem] of cases) {
    it(`${url} (http ${rules.allowHttp ? 'allowed' : 'refused'})`, () => expect(urlProblem(url, rules)).toBe(problem));
  }
});

describe('embeddedIpv4', () => {
  const cases: [string, string[]][] = [
    ['::ffff:7f00:1', ['127.0.0.1']],
    ['::ffff:0:a9fe:a9fe', ['169.254.169.254']],
    ['::7f00:1', ['127.0.0.1']],
    ['2002:a9fe:a9fe::', ['169.254.169.254']],
    ['64:ff9b::a9fe:a9fe', ['169.254.169.254']],
    ['64:ff9b:1::a9fe:a9fe', ['169.254.169.254']],
    // Teredo: the server, then the client (stored inverted: 0xf7f7f7f7 is 8.8.8.8).
    ['2001:0:7f00:1:0:0:f7f7:f7f7', ['127.0.0.1', '8.8.8.8']],
    ['2404:6800:4009:80b::200e', []],
    ['fd00::1', []],
  ];
  for (const [address, carried] of cases) {
    it(`${address} → ${carried.join(', ') || 'none'}`, () => expect(embeddedIpv4(address)).toEqual(carried));
  }

  it('reads every spelling of an IPv6 address to the same bytes, and refuses what is not one', () => {
    const loopbackCompat = [...Array(12).fill(0), 127, 0, 0, 1];
    expect(ipv6Bytes('::7f00:1')).toEqual(loopbackCompat);
    expect(ipv6Bytes('::127.0.0.1')).toEqual(loopbackCompat);
    expect(ipv6Bytes('0:0:0:0:0:0:7f00:0001')).toEqual(loopbackCompat);
    for (const bad of ['1::2::3', '::1.2.3.256', '1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '::g', '1:2:3:4:5:6:7::8']) expect(ipv6Bytes(bad), bad).toBeNull();
  });
});

describe('resolveTarget', () => {
  const rules = (answers: string[]) => ({
    allowHttp: false,
    allowPrivate: false,
    lookup: async () => answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  });

  it('refuses a host name whose answers carry a refused IPv4 address in any IPv6 form, naming what it carries', async () => {
    const cases: [string, string][] = [
      ['::ffff:7f00:1', '127.0.0.1'],
      ['::7f00:1', '127.0.0.1'],
      ['2002:a9fe:a9fe::', '169.254.169.254'],
      ['64:ff9b::a9fe:a9fe', '169.254.169.254'],
      ['64:ff9b::7f00:1', '127.0.0.1'],
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', '127.0.0.1'],
    ];
    for (const [answer, carried] of cases) {
      await expect(resolveTarget('https://hooks.example.in/dakiya', rules(['13.235.1.1', answer])), answer).rejects.toThrow(
        `url host hooks.example.in resolves to ${answer} (which carries ${carried}), a loopback, private, link-local or reserved address (set WEBHOOK_ALLOW_PRIVATE=true to allow)`,
      );
    }
  });

  it('allows public answers, NAT64 and 6to4 forms of public addresses included, and connects to the first', async () => {
    const target = await resolveTarget('https://hooks.example.in/dakiya', rules(['64:ff9b::808:808', '2002:808:808::1', '13.235.1.1']));
    expect(target.addresses).toEqual([
      { address: '64:ff9b::808:808', family: 6 },
      { address: '2002:808:808::1', family: 6 },
      { address: '13.235.1.1', family: 4 },
    ]);
  });
});

describe('refusalOf', () => {
  const rules = (lookup: TargetRules['lookup']): TargetRules => ({ allowHttp: false, allowPrivate: false, lookup });
  const nowhere = rules(async (host) => {
    throw new Error(`ENOTFOUND ${host}`);
  });

  it('does not refuse a host that does not resolve (yet), while resolveTarget cannot send to it', async () => {
    expect(await refusalOf('https://hooks.later.example.in/dakiya', nowhere)).toBeNull();
    await expect(resolveTarget('https://hooks.later.example.in/dakiya', nowhere)).rejects.toThrow(new UnresolvedHostError('url host hooks.later.example.in does not resolve'));
  });

  it('names what refuses a URL: its scheme, or the private address it resolves to', async () => {
    expect(await refusalOf('http://hooks.later.example.in/dakiya', nowhere)).toMatch(/^url must start with https:\/\/ \(.*WEBHOOK_ALLOW_HTTP=true.*WEBHOOK_ALLOW_PRIVATE=true/);
    expect(await refusalOf('https://hooks.example.in/dakiya', rules(async () => [{ address: '10.0.0.7', family: 4 }]))).toBe(
      'url host hooks.example.in resolves to 10.0.0.7, a loopback, private, link-local or reserved address (set WEBHOOK_ALLOW_PRIVATE=true to allow)',
    );
    expect(await refusalOf('https://hooks.example.in/dakiya', rules(async () => [{ address: '13.235.1.1', family: 4 }]))).toBeNull();
  });
});
