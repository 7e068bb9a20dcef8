/**
 * Reads a V8 `.cpuprofile` (written by `node --cpu-prof`, or kept by `npm run bench:profile`) and
 * prints where its time went: self time by file and by function, total time (the function and what
 * it called) by function, and self time by part of the request (bench/lib/profile-components.ts),
 * each as milliseconds, share of the busy samples, and, given the requests the window served, µs per
 * request. Total time is what a function costs with everything under it; for Fastify's hooks, which
 * call the next hook from their own `done()`, that includes every later step, so a last table gives
 * each of our functions its own time: a sample goes to the innermost frame of ours (dist/) above it,
 * with Fastify's and Node's frames it called (a reply.header, a hash), but not past a frame of
 * Fastify's request cycle (the hook runner, the handler's caller, the send path), which belong to
 * the steps that follow.
 *
 *   npx tsx bench/cpuprofile-summary.ts <file.cpuprofile> [--from=<s>] [--to=<s>] [--requests=<n>]
 *     [--last=<s> --skip-end=<s>] [--top=<n>] [--match=<text>]
 *
 * --from and --to bound the window in seconds from the profile's start (the warm-up and shutdown
 * left out), or --last=<s> takes the last seconds before --skip-end=<s> (the shutdown) from its end; --requests turns milliseconds into µs per request; --match keeps only the functions
 * whose name or file contains the text in the total-time table (e.g. --match=dist/ for ours).
 */
import fs from 'node:fs';
import { formatParts, type Profile, type ProfileNode, timeByPart } from './lib/profile-components.js';

const args = process.argv.slice(2);
const file = args.find((arg) => !arg.startsWith('--'));
if (!file) {
  console.error('usage: npx tsx bench/cpuprofile-summary.ts <file.cpuprofile> [--from=s] [--to=s] [--requests=n]');
  process.exit(2);
}
const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
let fromMs = Number(option('from') ?? 0) * 1000;
let toMs = Number(option('to') ?? Number.POSITIVE_INFINITY) * 1000;
const requests = Number(option('requests') ?? 0);
const top = Number(option('top') ?? 30);
const match = option('match');

const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const lengthMs = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0) / 1000;
if (option('last') !== undefined) {
  toMs = lengthMs - Number(option('skip-end') ?? 0) * 1000;
  fromMs = toMs - Number(option('last')) * 1000;
}
const byId = new Map<number, ProfileNode>(profile.nodes.map((node) => [node.id, node]));
for (const node of profile.nodes) for (const child of node.children ?? []) byId.get(child)!.parent = node.id;

/** A file as a reader names it: a package, our module under dist/, a node: module, or V8's own bucket. */
function fileOf(url: string, functionName: string): string {
  if (!url) return `(${functionName.replace(/^\((.*)\)$/, '$1')})`;
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (inPackage) return `${inPackage[1]}/${inPackage[2]}`;
  if (url.includes('/dist/')) return `dist/${url.split('/dist/')[1]}`;
  return url.replace(/^file:\/\//, '');
}
const functionOf = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'}  ${fileOf(url, functionName || 'anonymous')}${url ? `:${lineNumber + 1}` : ''}`;
};

/** Fastify functions a hook calls for its own work; any other Fastify frame is the request cycle moving on. */
const FASTIFY_CALLED = new Set([
  'Reply.header',
  'Reply.headers',
  'Reply.type',
  'Reply.getHeader',
  'Reply.code',
  'Reply.status',
]);
const ownByOurFunction = new Map<string, number>();
/** The innermost function of ours the sample is the own work of, if any. */
function ownerOf(leaf: ProfileNode): string | undefined {
  for (let at: ProfileNode | undefined = leaf; at; at = at.parent === undefined ? undefined : byId.get(at.parent)) {
    const { url, functionName } = at.callFrame;
    if (url.includes('/dist/') && !url.includes('/node_modules/')) return functionOf(at);
    if (url.includes('/node_modules/fastify/lib/') && !FASTIFY_CALLED.has(functionName)) return undefined;
  }
  return undefined;
}

const selfByFile = new Map<string, number>();
const selfByFunction = new Map<string, number>();
const totalByFunction = new Map<string, number>();
const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);
let busy = 0;
let idle = 0;
let clock = 0;
let first = Number.POSITIVE_INFINITY;
let last = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  clock += delta;
  if (clock < fromMs * 1000 || clock > toMs * 1000) return;
  first = Math.min(first, clock);
  last = clock;
  const node = byId.get(id)!;
  if (node.callFrame.functionName === '(idle)') {
    idle += delta;
    return;
  }
  busy += delta;
  add(selfByFile, fileOf(node.callFrame.url, node.callFrame.functionName), delta);
  add(selfByFunction, functionOf(node), delta);
  const owner = ownerOf(node);
  if (owner !== undefined) add(ownByOurFunction, owner, delta);
  // Each function on the stack once, however often it recurses.
  const seen = new Set<string>();
  for (let at: ProfileNode | undefined = node; at; at = at.parent === undefined ? undefined : byId.get(at.parent)) {
    const name = functionOf(at);
    if (seen.has(name)) continue;
    seen.add(name);
    add(totalByFunction, name, delta);
  }
});

const line = (key: string, micros: number) =>
  `${(micros / 1000).toFixed(0).padStart(7)} ms ${((micros / busy) * 100).toFixed(1).padStart(5)} %` +
  (requests > 0 ? ` ${(micros / requests).toFixed(2).padStart(7)} µs/req` : '') +
  `  ${key}`;
const table = (map: Map<string, number>, filter: (key: string) => boolean = () => true) =>
  [...map]
    .filter(([key]) => filter(key))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, micros]) => line(key, micros))
    .join('\n');

console.log(
  `window ${(first / 1e6).toFixed(1)}–${(last / 1e6).toFixed(1)} s: busy ${(busy / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s` +
    (requests > 0 ? `, ${requests} requests, ${(busy / requests).toFixed(1)} µs of samples per request` : ''),
);
console.log(`\nself time by file\n${table(selfByFile)}`);
console.log(`\nself time by function\n${table(selfByFunction)}`);
console.log(
  `\ntotal time by function (with what it called)${match ? `, matching "${match}"` : ''}\n${table(
    totalByFunction,
    (key) => !key.startsWith('(root)') && (match === undefined || key.includes(match)),
  )}`,
);
console.log(
  `\nown time of our functions (dist/), with what they call but not the request's later steps\n${table(ownByOurFunction)}`,
);
const parts = timeByPart(profile, fromMs, toMs);
console.log(
  `\nself time by part of the request${requests > 0 ? ', µs per request of samples' : ' (shares)'}\n${formatParts(
    parts,
    requests > 0 ? busy / requests : 100,
  )}`,
);
