import { describe, expect, it } from 'vitest';
import { addressRefusal, carriedIpv4, ipv6Bytes, isRefusedAddress } from './addresses.js';

describe('isRefusedAddress', () => {
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
    // AWS's IPv6 metadata service.
    ['fd00:ec2::254', true],
    ['ff02::1', true],
    ['2001:db8::1', true],
    ['2404:6800:4009:80b::200e', false],
    ['not an address', true],
    ['fe80::1%eth0', true],
    // IPv6 forms that carry a refused IPv4 address.
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:a9fe:a9fe', true],
    ['::ffff:0:7f00:1', true],
    ['::7f00:1', true],
    ['::127.0.0.1', true],
    ['::a9fe:a9fe', true],
    ['::a00:1', true],
    ['2002:7f00:1::', true],
    ['2002:a9fe:a9fe::', true],
    ['2002:a9fe:a9fe:1:2:3:4:5', true],
    ['2002:c0a8:101::1', true],
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::127.0.0.1', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['64:ff9b::a00:1', true],
    ['64:ff9b:1:7f00:1::', true],
    ['64:ff9b:1::a9fe:a9fe', true],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', true],
    ['2001:0:7f00:1:0:0:f7f7:f7f7', true],
    ['::1:7f00:1', true],
    // Transition forms are refused whatever they carry, but for the well-known NAT64 prefix (DNS64).
    ['::ffff:8.8.8.8', true],
    ['::ffff:808:808', true],
    ['::ffff:0:808:808', true],
    ['::808:808', true],
    ['2002:808:808::1', true],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', true],
    ['64:ff9b:1::808:808', true],
    ['64:ff9b::808:808', false],
  ];
  for (const [address, refused] of cases) {
    it(`${address} → ${refused ? 'refused' : 'allowed'}`, () => expect(isRefusedAddress(address)).toBe(refused));
  }

  it('says why: the address, the refused IPv4 address it carries, or the transition form it is', () => {
    expect(addressRefusal('10.0.0.1')).toEqual({ address: '10.0.0.1' });
    expect(addressRefusal('2002:a9fe:a9fe::')).toEqual({ address: '2002:a9fe:a9fe::', carries: '169.254.169.254' });
    expect(addressRefusal('2002:808:808::1')).toEqual({ address: '2002:808:808::1', transition: '6to4' });
    expect(addressRefusal('::ffff:808:808')).toEqual({ address: '::ffff:808:808', transition: 'IPv4-mapped' });
    expect(addressRefusal('64:ff9b::808:808')).toBeNull();
  });
});

describe('carriedIpv4', () => {
  const cases: [string, ReturnType<typeof carriedIpv4>][] = [
    ['::ffff:7f00:1', { mechanism: 'IPv4-mapped', ipv4: ['127.0.0.1'] }],
    ['::ffff:0:a9fe:a9fe', { mechanism: 'IPv4-translated', ipv4: ['169.254.169.254'] }],
    ['::7f00:1', { mechanism: 'IPv4-compatible', ipv4: ['127.0.0.1'] }],
    ['2002:a9fe:a9fe::', { mechanism: '6to4', ipv4: ['169.254.169.254'] }],
    ['64:ff9b::a9fe:a9fe', { mechanism: 'NAT64', ipv4: ['169.254.169.254'] }],
    ['64:ff9b:1::a9fe:a9fe', { mechanism: 'NAT64', ipv4: ['169.254.169.254'] }],
    // Teredo: the server, then the client (stored inverted: 0xf7f7f7f7 is 8.8.8.8).
    ['2001:0:7f00:1:0:0:f7f7:f7f7', { mechanism: 'Teredo', ipv4: ['127.0.0.1', '8.8.8.8'] }],
    ['2404:6800:4009:80b::200e', null],
    ['fd00::1', null],
  ];
  for (const [address, carried] of cases) {
    it(`${address} → ${carried ? carried.ipv4.join(', ') : 'none'}`, () =>
      expect(carriedIpv4(address)).toEqual(carried));
  }

  it('reads every spelling of an IPv6 address to the same bytes, and refuses what is not one', () => {
    const loopbackCompat = [...Array(12).fill(0), 127, 0, 0, 1];
    expect(ipv6Bytes('::7f00:1')).toEqual(loopbackCompat);
    expect(ipv6Bytes('::127.0.0.1')).toEqual(loopbackCompat);
    expect(ipv6Bytes('0:0:0:0:0:0:7f00:0001')).toEqual(loopbackCompat);
    for (const bad of ['1::2::3', '::1.2.3.256', '1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '::g', '1:2:3:4:5:6:7::8'])
      expect(ipv6Bytes(bad), bad).toBeNull();
  });
});
