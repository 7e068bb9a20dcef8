import { BlockList, isIP } from 'node:net';

/**
 * Addresses no URL an account controls may reach from the server: loopback, private networks,
 * link-local (the cloud metadata services live at 169.254.169.254 and fd00:ec2::254), carrier-grade
 * NAT, "this network" and the unspecified address, multicast, reserved and documentation ranges,
 * and their IPv6 counterparts.
 */
const refusedNetworks = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  refusedNetworks.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  // Local-use NAT64 (RFC 8215): it translates into whatever IPv4 network its operator runs.
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  refusedNetworks.addSubnet(network, prefix, 'ipv6');
}

/** The 16 bytes of an IPv6 address (a zone such as %eth0 ignored, a trailing dotted quad allowed), or null. */
export function ipv6Bytes(address: string): number[] | null {
  let text = address.replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const octets = quad.slice(1).map(Number);
    if (octets.some((o) => o > 255)) return null;
    text = `${text.slice(0, quad.index)}${((octets[0]! << 8) | octets[1]!).toString(16)}:${((octets[2]! << 8) | octets[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = halves.map((half) => (half === '' ? [] : half.split(':')));
  const missing = 8 - groups.reduce((n, g) => n + g.length, 0);
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = halves.length === 1 ? groups[0]! : [...groups[0]!, ...Array<string>(missing).fill('0'), ...groups[1]!];
  if (all.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  return all.flatMap((g) => {
    const value = Number.parseInt(g, 16);
    return [value >> 8, value & 0xff];
  });
}

const ipv4At = (bytes: number[], ...at: number[]) => at.map((i) => bytes[i]).join('.');
const zero = (bytes: number[], from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);

/** An IPv6 address that stands for an IPv4 one, by the mechanism that routes it there. */
export interface CarriedIpv4 {
  mechanism: 'IPv4-mapped' | 'IPv4-translated' | 'IPv4-compatible' | 'NAT64' | '6to4' | 'Teredo';
  /** The IPv4 addresses it reaches (Teredo: its server, then its client, stored inverted). */
  ipv4: string[];
}

/**
 * The IPv4 addresses an IPv6 address carries, by the transition mechanisms that route to them:
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d),
 * NAT64 (64:ff9b::/96, and the local-use 64:ff9b:1::/48 read as a /96 within it), 6to4
 * (2002::/16) and Teredo (2001::/32). A host such as [::7f00:1] or [2002:a9fe:a9fe::] reaches
 * loopback or the metadata service as surely as 127.0.0.1 does.
 */
export function carriedIpv4(address: string): CarriedIpv4 | null {
  const b = ipv6Bytes(address);
  if (!b) return null;
  const word = (i: number) => (b[i]! << 8) | b[i + 1]!;
  const last = [ipv4At(b, 12, 13, 14, 15)];
  if (zero(b, 0, 10) && word(10) === 0xffff) return { mechanism: 'IPv4-mapped', ipv4: last };
  if (zero(b, 0, 8) && word(8) === 0xffff && word(10) === 0) return { mechanism: 'IPv4-translated', ipv4: last };
  // :: and ::1 are not (their own entries refuse them), nor is the rest of ::/112.
  if (zero(b, 0, 12) && word(12) !== 0) return { mechanism: 'IPv4-compatible', ipv4: last };
  if (word(0) === 0x64 && word(2) === 0xff9b && (zero(b, 4, 12) || word(4) === 1))
    return { mechanism: 'NAT64', ipv4: last };
  if (word(0) === 0x2002) return { mechanism: '6to4', ipv4: [ipv4At(b, 2, 3, 4, 5)] };
  if (word(0) === 0x2001 && word(2) === 0) {
    const client = b
      .slice(12)
      .map((x) => x ^ 0xff)
      .join('.');
    return { mechanism: 'Teredo', ipv4: [ipv4At(b, 4, 5, 6, 7), client] };
  }
  return null;
}

/** Why an address may not be reached: the address itself, or the IPv4 address it carries, and how. */
export interface AddressRefusal {
  address: string;
  /** The refused IPv4 address an IPv6 form carries, when that is the reason. */
  carries?: string;
  /** An IPv6 transition form refused whatever it carries (none but NAT64 serves a public host). */
  transition?: CarriedIpv4['mechanism'];
}

/**
 * Why `address` is one no URL an account controls may reach, or null when it may be reached.
 * Anything that is not an address is refused. Of the IPv6 forms that carry an IPv4 address, only
 * the well-known NAT64 prefix is judged by the address it carries: an IPv6-only host behind DNS64
 * reaches every public IPv4 receiver through it. The others (mapped, translated, compatible, 6to4,
 * Teredo) are refused outright: no public API is served from them, and each can be made to reach
 * an IPv4 network the server sits in.
 */
export function addressRefusal(address: string): AddressRefusal | null {
  const family = isIP(address);
  if (family === 0) return { address };
  if (family === 4) return refusedNetworks.check(address, 'ipv4') ? { address } : null;
  const carried = carriedIpv4(address);
  const inner = carried?.ipv4.find((a) => refusedNetworks.check(a, 'ipv4'));
  if (inner) return { address, carries: inner };
  if (refusedNetworks.check(address, 'ipv6')) return { address };
  if (carried && carried.mechanism !== 'NAT64') return { address, transition: carried.mechanism };
  if (carried) return null;
  // The rest of ::/8 is reserved: no host lives there.
  return ipv6Bytes(address)?.[0] === 0 ? { address } : null;
}

/** Whether an address is one no URL an account controls may reach unless the operator allows private targets. */
export const isRefusedAddress = (address: string): boolean => addressRefusal(address) !== null;
