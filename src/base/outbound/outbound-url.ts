import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type AddressRefusal, addressRefusal } from './addresses.js';

/**
 * The one outbound guard (docs/decisions.md, "One outbound guard"): every URL an account controls
 * (a webhook endpoint, a messaging provider's base_url, a sales channel's store URL) is checked
 * here when it is saved and again before every request, and the request connects to the address
 * checked (outbound-request.ts). The operator's own provider hosts (WHATSAPP_BASE_URL, …) are not
 * an account's and pass through the same request without these rules.
 */
export interface OutboundRules {
  /** WEBHOOK_ALLOW_HTTP: plain http (self-hosters' own network, tests). */
  allowHttp: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: loopback, private, link-local and similar targets (a receiver on the operator's network). */
  allowPrivate: boolean;
  /** How host names are resolved: the system resolver unless a test names its own hosts. */
  lookup?: Resolver;
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

/** What the operator's own hosts are checked with: any scheme of http(s), any address. */
export const OPERATOR_RULES: OutboundRules = Object.freeze({ allowHttp: true, allowPrivate: true });

const systemLookup: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** The URL, or its host's addresses, are not ones an account may make the server call. */
export class OutboundRefused extends Error {}

/** The host does not resolve (not yet, perhaps: DNS often comes after the registration). */
export class UnresolvedHost extends Error {}

/**
 * The host as written between `//` and the path, before the WHATWG parser rewrites it: the parser
 * reads 2130706433, 0x7f.1, 0177.0.0.1, 127.1 and %31%32%37.0.0.1 all as 127.0.0.1, and a guard
 * that only saw its result would let an account keep any of those spellings.
 */
function hostAsWritten(raw: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:[/\\]{2}([^/\\?#]*)/i.exec(raw.trim())?.[1] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:[0-9]*$/, '');
}

const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/** The words of a refused address, as the field's message says them. */
function refusalWords(field: string, host: string, refusal: AddressRefusal): string {
  const why = refusal.carries
    ? ` (which carries ${refusal.carries})`
    : refusal.transition
      ? ` (an IPv6 ${refusal.transition} address)`
      : '';
  return `${field} host ${host} resolves to ${refusal.address}${why}, a loopback, private, link-local, reserved or IPv6-transition address (set WEBHOOK_ALLOW_PRIVATE=true to allow)`;
}

/**
 * What is wrong with a URL's form, or null; `field` names it in the message. Pure: no DNS. Beside
 * the scheme (https, or http when allowed), credentials and a fragment, it refuses what the form
 * alone tells to be private: an IP literal the rules refuse, `localhost` and any name under
 * `.localhost` (RFC 6761: they never leave the machine), and IPv4 addresses written in any but
 * four decimal numbers.
 */
export function urlProblem(raw: string, rules: OutboundRules, field = 'url'): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${field} must be an absolute URL, e.g. https://hooks.example.in/dakiya`;
  }
  if (url.protocol !== 'https:' && !(rules.allowHttp && url.protocol === 'http:')) {
    if (rules.allowHttp) return `${field} must start with https:// or http://`;
    return url.protocol === 'http:'
      ? `${field} must start with https:// (a receiver on your own machine or network: start the server with WEBHOOK_ALLOW_HTTP=true, and WEBHOOK_ALLOW_PRIVATE=true for a loopback or private address)`
      : `${field} must start with https://`;
  }
  if (url.username || url.password) return `${field} must not carry a user name or password`;
  if (url.hash) return `${field} must not have a #fragment`;
  const host = bare(url.hostname);
  if (isIP(host) === 4 && hostAsWritten(raw).toLowerCase() !== host) {
    return `${field} host ${hostAsWritten(raw)} must be a name or an IPv4 address as four decimal numbers (it is read as ${host})`;
  }
  if (rules.allowPrivate) return null;
  const name = host.toLowerCase().replace(/\.+$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) {
    return `${field} host ${host} is this machine (set WEBHOOK_ALLOW_PRIVATE=true to allow)`;
  }
  const refusal = isIP(host) ? addressRefusal(host) : null;
  return refusal ? refusalWords(field, host, refusal) : null;
}

/** A URL whose host was resolved and judged: a request connects to `addresses[0]`, never resolving again. */
export interface PinnedTarget {
  url: URL;
  addresses: { address: string; family: 4 | 6 }[];
}

/**
 * Resolves the URL's host once and refuses it when any address it resolves to is refused (unless
 * the rules allow private targets): a name that resolves to both a public and a private address
 * could be steered to the private one. Throws OutboundRefused for a URL the rules refuse, and
 * UnresolvedHost for a host without an address. Run when the URL is saved and before every
 * request; the request connects to the address judged here, so a DNS answer that changes in
 * between (rebinding) cannot slip past.
 */
export async function resolveTarget(raw: string, rules: OutboundRules, field = 'url'): Promise<PinnedTarget> {
  const problem = urlProblem(raw, rules, field);
  if (problem) throw new OutboundRefused(problem);
  const url = new URL(raw);
  const host = bare(url.hostname);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (rules.lookup ?? systemLookup)(host);
    } catch {
      throw new UnresolvedHost(`${field} host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw new UnresolvedHost(`${field} host ${host} does not resolve`);
  }
  if (!rules.allowPrivate) {
    for (const { address } of addresses) {
      const refusal = addressRefusal(address);
      if (refusal) throw new OutboundRefused(refusalWords(field, host, refusal));
    }
  }
  return { url, addresses: addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })) };
}

/**
 * Why the rules refuse the URL (its form, or an address it resolves to), or null when they do not.
 * A host that does not resolve is not refused: it may yet, and is judged again before each request.
 */
export async function refusalOf(raw: string, rules: OutboundRules, field = 'url'): Promise<string | null> {
  try {
    await resolveTarget(raw, rules, field);
    return null;
  } catch (error) {
    if (error instanceof OutboundRefused) return error.message;
    if (error instanceof UnresolvedHost) return null;
    throw error;
  }
}
