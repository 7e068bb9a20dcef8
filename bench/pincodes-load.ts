// Load time and heap cost of the pincode directory (issue 3 target: < 200 ms, < 30 MB).
// Run: npx tsx --expose-gc bench/pincodes-load.ts   (or node --expose-gc --import tsx …)
import { performance } from 'node:perf_hooks';
import { loadPincodeDirectory } from '../src/data-files.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  console.error('Run with --expose-gc so the heap figure is not polluted by garbage.');
  process.exit(1);
}

gc();
const heapBefore = process.memoryUsage().heapUsed;
const started = performance.now();
const directory = loadPincodeDirectory();
const loadMs = performance.now() - started;
gc();
const heapAfter = process.memoryUsage().heapUsed;

const probes = ['110001', '400001', '560001', '744101', '682555', '999999'];
const rounds = 1_000_000;
const lookupStarted = performance.now();
let found = 0;
for (let i = 0; i < rounds; i++) if (directory.lookup(probes[i % probes.length] as string)) found++;
const lookupNs = ((performance.now() - lookupStarted) * 1e6) / rounds;

console.log(`pincodes:      ${directory.size}`);
console.log(`load time:     ${loadMs.toFixed(1)} ms (cold, includes reading the file)`);
console.log(`heap retained: ${((heapAfter - heapBefore) / 1024 / 1024).toFixed(2)} MB`);
console.log(`lookup:        ${lookupNs.toFixed(0)} ns each (${found} hits in ${rounds})`);
