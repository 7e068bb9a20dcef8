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
 * reserved and documentation ranges, and their IPv6 counterparts (IPv4-mapped ones are unwrapped
 * before the check).
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
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  refused.addSubnet(network, prefix, 'ipv6');
}

/** Whether an address is one no webhook may reach unless private targets are allowed. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return refused.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return refused.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** What is wrong with a URL's form (scheme, credentials, host), or null. Pure: no DNS. */
export function urlProblem(raw: string, rules: TargetRules): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL, e.g. https://hooks.example.in/dakiya';
  }
  if (url.protocol !== 'https:' && !(rules.allowHttp && url.protocol === 'http:')) {
    return rules.allowHttp ? 'url must start with https:// or http://' : 'url must start with https://';
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

/**
 * Resolves the URL's host and refuses it when any address it resolves to is private (unless
 * allowed): a name that resolves to both a public and a private address could be steered to the
 * private one. Run at registration and again before every send, and the send connects to an
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
      throw new UnsafeTargetError(`url host ${host} does not resolve`);
    }
  }
  if (!rules.allowPrivate) {
    const blocked = addresses.find((a) => isPrivateAddress(a.address));
    if (blocked) {
      throw new UnsafeTargetError(
        `url host ${host} resolves to ${blocked.address}, a loopback, private, link-local or reserved address (set WEBHOOK_ALLOW_PRIVATE=true to allow)`,
      );
    }
  }
  return { url, addresses: addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })) };
}
