/**
 * Label drawing time per label, by script: a Latin-only label (the baseline, run in the same
 * process and rounds), a label in one Indic script, and a label mixing all nine.
 *
 *   npx tsx bench/labels.ts [labels per round] [rounds]
 *
 * The kinds are interleaved round by round so machine noise falls on all alike; the figure is the
 * median round's milliseconds per label. The first label (fonts parsed, HarfBuzz started) is timed
 * apart, as a process pays it once. Then one PDF of 500 Latin labels (`POST /labels`' largest
 * run, renderLabels), per label against the baseline.
 */
import { type LabelData, renderLabel, renderLabels } from '../src/features/labels/label-pdf.js';

const perRound = Number(process.argv[2] ?? 40);
const rounds = Number(process.argv[3] ?? 5);

const base: LabelData = {
  awb: 'SFX0000012345',
  courierName: 'Shadowfax Standard',
  brandName: 'Nila Textiles',
  brandLogo: null,
  shipTo: { name: 'Asha Menon', lines: ['12 Marine Drive', 'Mumbai, Maharashtra 400001'], phone: '9123456780' },
  returnTo: {
    name: 'Okhla Fulfilment Centre',
    lines: ['Plot 14, Okhla Phase III', 'New Delhi, Delhi 110020'],
    phone: '9876543210',
  },
  gstin: '07AABCU9603R1ZM',
  soldBy: null,
  orderId: 'ORD-1001',
  orderDate: '2026-11-20 14:30 IST',
  items: [
    { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2 },
    { name: 'Silk Scarf', sku: 'SCARF-RED', units: 1 },
  ],
  declaredValue: 998,
  codAmount: 998,
  weightKg: 0.75,
  dimensionsCm: [30, 20, 5],
  zone: 'zone_c',
  testMode: false,
};

const devanagari: LabelData = {
  ...base,
  shipTo: {
    name: 'श्रीमती प्रिया क्षत्रिय',
    lines: ['फ्लैट 12, कृष्णा नगर, सेक्टर 62', 'वाराणसी, उत्तर प्रदेश 221001'],
    phone: '9123456780',
  },
  items: [{ name: 'शुद्ध देसी घी 500 ml', sku: 'GHEE-500', units: 2 }],
};

const allScripts: LabelData = {
  ...base,
  shipTo: {
    name: 'श्रीमती प्रिया क्षत्रिय (শ্রী কৃষ্ণ চক্রবর্তী)',
    lines: [
      'ਪ੍ਰੀਤ ਸਿੰਘ ਗਿੱਲ, ਅੰਮ੍ਰਿਤਸਰ ਰੋਡ',
      'શ્રી ક્ષિતિજ પટેલ, નવરંગપુરા',
      'ଶ୍ରୀ କ୍ଷେତ୍ରମୋହନ ମହାପାତ୍ର',
      'ஸ்ரீ கொற்றவை சுந்தரம், சென்னை',
      'Sector 62, Noida 201301',
    ],
    phone: '9123456780',
  },
  items: [
    { name: 'పోచంపల్లి చీర', sku: 'SAREE-1', units: 1 },
    { name: 'ಮೈಸೂರು ರೇಷ್ಮೆ ಸೀರೆ', sku: 'SAREE-2', units: 1 },
    { name: 'കസവ് മുണ്ട്', sku: 'MUNDU-1', units: 1 },
  ],
};

const kinds = { 'Latin only (baseline)': base, Devanagari: devanagari, 'all nine scripts': allScripts };

const started = performance.now();
const first = await renderLabel(base);
const firstMs = performance.now() - started;

const times: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
const sizes: Record<string, number> = {};
for (let round = 0; round < rounds; round++) {
  for (const [kind, data] of Object.entries(kinds)) {
    const t0 = performance.now();
    let bytes = 0;
    for (let i = 0; i < perRound; i++) bytes = (await renderLabel(data)).length;
    times[kind]!.push((performance.now() - t0) / perRound);
    sizes[kind] = bytes;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const baseline = median(times['Latin only (baseline)']!);
console.log(`first label in the process (fonts loaded): ${firstMs.toFixed(0)} ms (${first.length} bytes)`);
console.log(`${perRound} labels x ${rounds} rounds, median round:`);
for (const kind of Object.keys(kinds)) {
  const ms = median(times[kind]!);
  console.log(
    `  ${kind.padEnd(24)} ${ms.toFixed(1)} ms/label  x${(ms / baseline).toFixed(2)}  ${(sizes[kind]! / 1024).toFixed(0)} KiB`,
  );
}

const bulkTimes: number[] = [];
let bulkBytes = 0;
for (let round = 0; round < rounds; round++) {
  const batch = Array.from({ length: 500 }, (_, i) => ({ ...base, awb: `SFX${String(i).padStart(10, '0')}` }));
  const t0 = performance.now();
  bulkBytes = (await renderLabels(batch)).length;
  bulkTimes.push((performance.now() - t0) / batch.length);
}
const bulk = median(bulkTimes);
console.log(
  `one PDF of 500 labels (POST /labels), median of ${rounds}: ${bulk.toFixed(1)} ms/label  x${(bulk / baseline).toFixed(2)}  ${(bulkBytes / 1024).toFixed(0)} KiB`,
);
