import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export interface TargetRules {
  /** WEBHOOK_ALLOW_HTTP: plain http targets (self-hosters' own network, tests). */
  allowHttp: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: targets on loopback, private, link-local and similar addresses. */
  allowPrivate: boolean;
  /** How host names are resolved; the system resolver unless a test names its own hosts. */
  lookup?: (host: string) => Promise<{ address: string; family: number }[]>;
}

const systemLookup = (host: string) => lookup(host, { all: true, verbatim: true });

/**
 * Addresses a webhook must not reach from a server: loopback, private networks, link-local (the
 * cloud metadata service lives at 169.254.169.254), carrier-grade NAT, "this network", multicast,
 * reserved and documentation ranges, and their IPv6 counterparts. IPv6 forms that carry an IPv4
 * address (embeddedIpv4) are judged by that address too.
 */
const refused = new BlockList();
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
  refused.addSubnet(network, prefix, 'ipv4');
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
  refused.addSubnet(network, prefix, 'ipv6');
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

/**
 * The IPv4 addresses an IPv6 address carries, by the transition mechanisms that route to them:
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d),
 * NAT64 (64:ff9b::/96, and the local-use 64:ff9b:1::/48 read as a /96 within it: the whole /48 is
 * refused anyway, since its prefix length cannot be told from an address), 6to4 (2002::/16) and
 * Teredo (2001::/32: its server, and its client, stored inverted). A host such as [::7f00:1] or
 * [2002:a9fe:a9fe::] reaches loopback or the metadata service as surely as 127.0.0.1 does.
 */
export function embeddedIpv4(address: string): string[] {
  const b = ipv6Bytes(address);
  if (!b) return [];
  const word = (i: number) => (b[i]! << 8) | b[i + 1]!;
  if (zero(b, 0, 10) && word(10) === 0xffff) return [ipv4At(b, 12, 13, 14, 15)];
  if (zero(b, 0, 8) && word(8) === 0xffff && word(10) === 0) return [ipv4At(b, 12, 13, 14, 15)];
  // IPv4-compatible; :: and ::1 are not (their own entries refuse them), nor is the rest of ::/112.
  if (zero(b, 0, 12) && word(12) !== 0) return [ipv4At(b, 12, 13, 14, 15)];
  if (word(0) === 0x64 && word(2) === 0xff9b && zero(b, 4, 12)) return [ipv4At(b, 12, 13, 14, 15)];
  if (word(0) === 0x64 && word(2) === 0xff9b && word(4) === 1) return [ipv4At(b, 12, 13, 14, 15)];
  if (word(0) === 0x2002) return [ipv4At(b, 2, 3, 4, 5)];
  if (word(0) === 0x2001 && word(2) === 0) {
    return [ipv4At(b, 4, 5, 6, 7), b.slice(12).map((x) => x ^ 0xff).join('.')];
  }
  return [];
}

/**
 * The address that makes `address` one no webhook may reach (itself, or the IPv4 address it
 * carries), or null when it may be reached. Anything that is not an address is refused.
 */
export function refusedAs(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return address;
  if (family === 4) return refused.check(address, 'ipv4') ? address : null;
  const carried = embeddedIpv4(address);
  const v4 = carried.find((a) => refused.check(a, 'ipv4'));
  if (v4) return v4;
  if (refused.check(address, 'ipv6')) return address;
  if (carried.length > 0) return null;
  // The rest of ::/8 is reserved: no host lives there.
  return ipv6Bytes(address)?.[0] === 0 ? address : null;
}

/** Whether an address is one no webhook may reach unless private targets are allowed. */
export const isPrivateAddress = (address: string): boolean => refusedAs(address) !== null;

/** What is wrong with a URL's form (scheme, credentials, host), or null. Pure: no DNS. */
export function urlProblem(raw: string, rules: TargetRules): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL, e.g. https://hooks.example.in/dakiya';
  }
  if (url.protocol !== 'https:' && !(rules.allowHttp && url.protocol === 'http:')) {
    if (rules.allowHttp) return 'url must start with https:// or http://';
    return url.protocol === 'http:'
      ? 'url must start with https:// (a receiver on your own machine or network: start the server with WEBHOOK_ALLOW_HTTP=true, and WEBHOOK_ALLOW_PRIVATE=true for a loopback or private address)'
      : 'url must start with https://';
  }
  if (url.username || url.password) return 'url must not carry a user name or password';
  if (url.hash) return 'url must not have a #fragment';
  return null;
}

export interface ResolvedTarget {
  url: URL;
  /** The addresses the host resolved to, all allowed; requests connect to the first. */
  addresses: { address: string; family: 4 | 6 }[];
}

export class UnsafeTargetError extends Error {}

/** The host does not resolve (not yet, perhaps: DNS often comes after the registration). */
export class UnresolvedHostError extends Error {}

/**
 * Resolves the URL's host and refuses it when any address it resolves to is private (unless
 * allowed): a name that resolves to both a public and a private address could be steered to the
 * private one. A host that does not resolve is an UnresolvedHostError: no address to judge. Run at registration and again before every send, and the send connects to an
 * address checked here, so a DNS answer that changes in between cannot slip past.
 */
export async function resolveTarget(raw: string, rules: TargetRules): Promise<ResolvedTarget> {
  const problem = urlProblem(raw, rules);
  if (problem) throw new UnsafeTargetError(problem);
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (rules.lookup ?? systemLookup)(host);
    } catch {
      throw new UnresolvedHostError(`url host ${host} does not resolve`);
    }
  }
  if (!rules.allowPrivate) {
    for (const { address } of addresses) {
      const as = refusedAs(address);
      if (as === null) continue;
      const carried = as === address ? '' : ` (which carries ${as})`;
      throw new UnsafeTargetError(
        `url host ${host} resolves to ${address}${carried}, a loopback, private, link-local or reserved address (set WEBHOOK_ALLOW_PRIVATE=true to allow)`,
      );
    }
  }
  return { url, addresses: addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })) };
}

/**
 * Why the rules refuse the URL (its form, or an address it resolves to), or null when they do not.
 * A host that does not resolve is not refused: it may yet, and is judged again before each send.
 */
export async function refusalOf(raw: string, rules: TargetRules): Promise<string | null> {
  try {
    await resolveTarget(raw, rules);
    return null;
  } catch (error) {
    if (error instanceof UnsafeTargetError) return error.message;
    if (error instanceof UnresolvedHostError) return null;
    throw error;
  }
}
