// The JavaScript the panel's first load downloads, gzipped (the server sends it gzipped): every
// script and module preload index.html names, followed through their static imports. Fails above
// the budget of 300 kB. Run after a build: `npm run build:web && npm run panel:size`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET = 300 * 1024;
const dist = path.resolve('web/dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const seen = new Set();
const queue = [...html.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
let raw = 0;
let gzipped = 0;
while (queue.length > 0) {
  const file = queue.shift();
  if (seen.has(file)) continue;
  seen.add(file);
  const body = readFileSync(path.join(dist, file));
  raw += body.length;
  gzipped += gzipSync(body).length;
  // Static imports of other chunks load with the entry; dynamic import() ones do not.
  for (const m of body.toString('utf8').matchAll(/(?:^|[;\n}])import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) queue.push(`assets/${m[1]}`);
}
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
console.log(`panel first load: ${seen.size} script(s), ${kb(raw)} of JavaScript, ${kb(gzipped)} gzipped (budget ${kb(BUDGET)})`);
if (gzipped > BUDGET) process.exit(1);
