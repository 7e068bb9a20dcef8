import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { PinnedTarget } from './outbound-url.js';

/**
 * Kept-alive connections, one agent per receiver and checked address: consecutive requests to a
 * receiver reuse its connection instead of opening (and, for https, negotiating) one each. An
 * agent closes a socket left idle.
 */
export class PinnedAgents {
  private readonly byKey = new Map<string, http.Agent>();
  private readonly idleMs: number;

  constructor(idleMs = 30_000) {
    this.idleMs = idleMs;
  }

  for(target: PinnedTarget): http.Agent {
    const [pinned] = target.addresses;
    const key = `${target.url.protocol}//${target.url.host}|${pinned!.address}`;
    let agent = this.byKey.get(key);
    if (!agent) {
      const options = { keepAlive: true, timeout: this.idleMs, scheduling: 'lifo' as const };
      agent = target.url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.byKey.set(key, agent);
    }
    return agent;
  }

  /** Closes every kept connection. */
  close(): void {
    for (const agent of this.byKey.values()) agent.destroy();
    this.byKey.clear();
  }
}

export interface OutboundAnswer {
  status: number;
  /** The answer's headers, names lower-cased (a store's paging and rate-limit headers). */
  headers: http.IncomingHttpHeaders;
  /** The answer's text, at most `maxAnswerBytes` of it. */
  body: string;
  /** false when the answer was longer than `maxAnswerBytes` or ended early: `body` is what came. */
  complete: boolean;
}

/** No answer came: the connection failed, timed out or was stopped. `message` is ours, never the remote's. */
export class OutboundFailure extends Error {
  constructor(
    message: string,
    readonly reason: 'network' | 'timeout' | 'stopped',
  ) {
    super(message);
  }
}

/** The longest answer read by default; a receiver's status, or a provider's short JSON, is all that matters. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** What a failed connection says: the system's code (ECONNREFUSED, ECONNRESET, …), never an address or a remote's words. */
function networkWords(error: NodeJS.ErrnoException): string {
  if (error.code && /^[A-Z0-9_]+$/.test(error.code)) return `could not connect (${error.code})`;
  return 'could not connect';
}

/**
 * One request to a target `resolveTarget` checked: the connection goes to its first address (the
 * lookup is pinned to it, so the name is never resolved again), while the Host header and TLS's
 * server name and certificate check stay the URL's host. Redirects are answers like any other: a
 * 3xx is never followed. The whole exchange must end within `timeoutMs`; at most `maxAnswerBytes`
 * of the answer is read. With `agent`, a connection whose answer was read to its end is kept for
 * the next request; any other ending closes it.
 */
export function requestPinned(
  target: PinnedTarget,
  options: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    headers: Record<string, string | number>;
    body?: string;
    timeoutMs: number;
    signal?: AbortSignal;
    agent?: http.Agent;
    maxAnswerBytes?: number;
  },
): Promise<OutboundAnswer> {
  const [pinned] = target.addresses;
  const lookup: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: pinned!.address, family: pinned!.family }]);
    else callback(null, pinned!.address, pinned!.family);
  };
  const limit = options.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  const transport = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: OutboundAnswer | OutboundFailure, reusable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!reusable || !options.agent) request.destroy();
      if (outcome instanceof OutboundFailure) reject(outcome);
      else resolve(outcome);
    };
    const request = transport.request(
      target.url,
      {
        method: options.method,
        lookup,
        agent: options.agent ?? false,
        signal: options.signal,
        headers: {
          ...(options.body !== undefined && { 'content-length': Buffer.byteLength(options.body) }),
          ...options.headers,
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let read = 0;
        let cut = false;
        const answer = (complete: boolean) => ({
          status,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          complete: complete && !cut,
        });
        response.on('data', (chunk: Buffer) => {
          if (cut) return;
          const room = limit - read;
          read += chunk.length;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          if (read > limit) {
            cut = true;
            response.destroy();
          }
        });
        response.on('end', () => finish(answer(true), !cut));
        response.on('close', () => finish(answer(false)));
        response.on('error', () => finish(answer(false)));
      },
    );
    const timer = setTimeout(
      () => finish(new OutboundFailure(`no answer within ${options.timeoutMs / 1000} s`, 'timeout')),
      options.timeoutMs,
    );
    request.on('error', (error) =>
      finish(
        options.signal?.aborted
          ? new OutboundFailure('stopped', 'stopped')
          : new OutboundFailure(networkWords(error), 'network'),
      ),
    );
    request.end(options.body);
  });
}
