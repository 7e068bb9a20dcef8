import { describe, expect, it } from 'vitest';
import { isPrivateAddress, urlProblem } from './url-safety.js';

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
    ['http://hooks.chaipoint.in/dakiya', strict, 'url must start with https://'],
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
