/**
 * A CPU profile's samples charged to the parts of a request, so two profiles of the same load can
 * be compared part by part (`npm run bench:profile`). A sample is charged to the first frame, from
 * the running function outwards, that belongs to a named part: `pino` calling `node:fs` is logging,
 * Fastify calling `res.end` is Node's HTTP and sockets, the credential's hash is authentication.
 */
export interface ProfileNode {
  id: number;
  parent?: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

type Rule = [part: string, test: (url: string, functionName: string) => boolean];

const inDist = (file: string) => (url: string) => url.includes(`/dist/${file}`);
const inPackage = (name: string) => (url: string) => url.includes(`/node_modules/${name}/`);

/** Checked in order for each frame; the first rule that matches a frame names its part. */
const RULES: Rule[] = [
  [
    'logging (pino, the request line, its writes)',
    (url) =>
      inPackage('pino')(url) ||
      inPackage('sonic-boom')(url) ||
      inPackage('fast-redact')(url) ||
      inDist('base/log-destination')(url) ||
      inDist('http/log-privacy')(url) ||
      inDist('http/request-log')(url),
  ],
  [
    'authentication (credential, its cache)',
    (url) => inDist('http/auth')(url) || inDist('tenancy/accounts/')(url) || inDist('tenancy/sessions/')(url),
  ],
  ['rate limit', (url) => inDist('http/rate-limit')(url)],
  [
    'request id, default headers, 404 check (onRequest)',
    (url) => inDist('http/server')(url) || (inPackage('fastify')(url) && url.endsWith('req-id-gen-factory.js')),
  ],
  [
    'body parsing (JSON)',
    (url) =>
      inDist('http/json-body')(url) ||
      inPackage('secure-json-parse')(url) ||
      (inPackage('fastify')(url) && url.endsWith('content-type-parser.js')),
  ],
  [
    'validation (AJV, lenient input)',
    (url, fn) =>
      (url === '' && /^validate\d*$/.test(fn)) ||
      inDist('http/lenient-input')(url) ||
      inDist('http/all-errors')(url) ||
      inDist('http/text-input')(url) ||
      inPackage('ajv')(url) ||
      (inPackage('fastify')(url) && url.endsWith('validation.js')),
  ],
  [
    'serialisation (fast-json-stringify, reply payload)',
    (url) => inPackage('fast-json-stringify')(url) || inDist('http/json-reply')(url),
  ],
  ['the rate engine and its answer (rates feature)', (url) => inDist('features/rates/')(url) || inDist('domain/')(url)],
  ['listing (shipments reader)', (url) => inDist('readers/')(url)],
  [
    'database driver (pg, Drizzle, PGlite)',
    (url) =>
      inPackage('pg')(url) ||
      inPackage('pg-protocol')(url) ||
      inPackage('pg-pool')(url) ||
      inPackage('drizzle-orm')(url) ||
      inPackage('@electric-sql')(url) ||
      url.startsWith('wasm://'),
  ],
  ['Fastify routing (find-my-way)', (url) => inPackage('find-my-way')(url)],
  [
    'Fastify core (request, reply, hook runner)',
    (url) => inPackage('fastify')(url) || inPackage('avvio')(url) || inPackage('light-my-request')(url),
  ],
  [
    "Node's HTTP, sockets, streams (a bare server pays these too)",
    (url, fn) =>
      /^node:(_http_|net|internal\/stream|internal\/streams|stream)/.test(url) ||
      fn === 'writev' ||
      fn === 'writeBuffer' ||
      fn === 'writeUtf8String' ||
      fn === 'writeLatin1String',
  ],
  ['garbage collection', (_url, fn) => fn === '(garbage collector)'],
  ['idle', (_url, fn) => fn === '(idle)'],
];
const OTHER = 'other (event loop, timers, other code)';

/**
 * Self time of the samples between `fromMs` and `toMs` (from the profile's start) by part, in
 * microseconds, with the total and the idle time apart.
 */
export function timeByPart(profile: Profile, fromMs: number, toMs: number): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) byId.get(child)!.parent = node.id;
  const partOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = partOf.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const { url, functionName } = node.callFrame;
    const rule = RULES.find(([, test]) => test(url, functionName));
    const part = rule ? rule[0] : node.parent !== undefined ? classify(node.parent) : OTHER;
    partOf.set(id, part);
    return part;
  };
  const parts = new Map<string, number>();
  let clock = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    clock += delta;
    if (clock < fromMs * 1000 || clock > toMs * 1000) return;
    const part = classify(id);
    parts.set(part, (parts.get(part) ?? 0) + delta);
  });
  return parts;
}

/**
 * The parts as CPU microseconds per request: each part's share of the busy (not idle) samples
 * times the CPU per request the kernel counted for the process. On a busy machine the profiler's
 * samples are wall time (a thread descheduled in a system call is charged to it), so the shares
 * lean towards `writev`; the kernel's total does not.
 */
export function formatParts(parts: Map<string, number>, cpuMicrosPerRequest: number): string {
  const busy = [...parts].filter(([part]) => part !== 'idle').reduce((sum, [, micros]) => sum + micros, 0);
  return [...parts]
    .filter(([part]) => part !== 'idle')
    .sort((a, b) => b[1] - a[1])
    .map(
      ([part, micros]) =>
        `${((micros / busy) * cpuMicrosPerRequest).toFixed(1).padStart(7)} µs ${((micros / busy) * 100).toFixed(1).padStart(5)} %  ${part}`,
    )
    .join('\n');
}
