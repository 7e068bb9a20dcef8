// The layers of src/ (docs/architecture.md), bottom up. A layer imports only the layers below it;
// `npm run lint` and CI run this through scripts/check-layers.mjs, which also rejects import
// cycles between folders.
/**
 * The composition root, by name (docs/architecture.md, "One composition"): a new file directly in
 * src/ joins no layer until it is listed here, and scripts/check-layers.mjs refuses a file that is
 * in no layer (`no-layer`).
 */
const COMPOSITION = [
  'app.ts',
  'app-context.ts',
  'cli.ts',
  'cluster.settings.ts',
  'cluster.ts',
  'data-files.ts',
  'delivery-thread.ts',
  'delivery-worker.ts',
  'error-codes.ts',
  'demo.ts',
  'landing.ts',
  'main.ts',
  'openapi-document.ts',
  'openapi.ts',
  'panel.ts',
  'route-permissions.ts',
  'server.ts',
  'settings-docs.ts',
  'settings.ts',
  'startup-notes.ts',
  'worker.ts',
];
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const LAYERS = [
  { name: 'base', path: '^src/base/' },
  { name: 'domain', path: '^src/domain/' },
  { name: 'http', path: '^src/http/' },
  { name: 'tenancy', path: '^src/tenancy/' },
  { name: 'shipment-records', path: '^src/shipment-records/' },
  { name: 'events', path: '^src/events/' },
  { name: 'couriers', path: '^src/couriers/' },
  { name: 'channels', path: '^src/channels/' },
  { name: 'features', path: '^src/features/' },
  { name: 'readers', path: '^src/readers/' },
  { name: 'consumers', path: '^src/consumers/' },
  { name: 'composition', path: `^src/((${COMPOSITION.map(escape).join('|')})$|demo/)` },
];

const TESTS = '[.]test[.]ts$';

/** What does I/O: the domain core may not reach any of it, directly or through other files. */
const IMPURE = [
  '^src/base/db/',
  '^(node:)?(fs|fs/promises|net|http|https|http2|tls|dns|dgram|child_process|cluster|worker_threads|readline)$',
  'node_modules/(pg|pg-[a-z-]+|@electric-sql|fastify|@fastify|ioredis|nodemailer|drizzle-orm|sharp|pdfkit|bwip-js|harfbuzzjs|pino|undici)/',
];

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `${layer.name}-imports-only-below`,
  comment: `${layer.name} may import only ${LAYERS.slice(0, i).map((l) => l.name).join(', ') || 'packages'} (docs/architecture.md)`,
  severity: 'error',
  from: { path: layer.path, pathNot: TESTS },
  to: { path: LAYERS.slice(i + 1).map((l) => l.path) },
}));

module.exports = {

  forbidden: [
    ...layerRules,
    {
      name: 'domain-is-pure',
      comment:
        'The domain core does no I/O, not even through a chain of imports: no files, network, processes, database, HTTP framework, mail, PDF or image library.',
      severity: 'error',
      from: { path: '^src/domain/', pathNot: TESTS },
      to: { reachable: true, path: IMPURE },
    },
    {
      name: 'shipment-records-speak-no-http',
      comment:
        'What several modules read or keep of a shipment (decision 141) is statements and TypeBox fields, never a route, a request or the HTTP kit.',
      severity: 'error',
      from: { path: '^src/shipment-records/', pathNot: TESTS },
      to: { path: ['^src/http/', 'node_modules/(fastify|@fastify)/'] },
    },
    {
      name: 'no-http-below-the-routes',
      comment:
        'Services, repositories, connectors, channel adapters, input parsers and errors speak in domain terms (issue 48): of the HTTP kit, only routes, registrars, schemas, examples and HTML templates import more than the registrar host, the HTML kit and log redaction.',
      severity: 'error',
      from: {
        path: '^src/(tenancy|events|couriers|channels|features|readers|consumers)/',
        pathNot: [TESTS, '[.](routes|register|schemas|examples|html)[.]ts$'],
      },
      to: { path: '^src/http/', pathNot: '^src/http/(host|html|log-privacy)[.]ts$' },
    },
    {
      name: 'features-stay-apart',
      comment: 'A feature reaches another through the event log or a function the composition root hands in (features/contracts.ts).',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/', pathNot: TESTS },
      to: { path: '^src/features/', pathNot: ['^src/features/$1/', '^src/features/contracts[.]ts$'] },
    },
    {
      name: 'readers-import-no-feature',
      comment: 'Read models read the database and the domain core, never a use case.',
      severity: 'error',
      from: { path: '^src/readers/', pathNot: TESTS },
      to: { path: ['^src/features/', '^src/couriers/', '^src/channels/'] },
    },
    {
      name: 'consumers-stay-apart',
      comment: 'Consumers subscribe to the event log; no module imports them, not even another consumer.',
      severity: 'error',
      from: { path: '^src/consumers/([^/]+)/', pathNot: TESTS },
      to: { path: '^src/consumers/', pathNot: '^src/consumers/$1/' },
    },
    {
      name: 'no-file-cycles',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'tests-are-not-imported',
      severity: 'error',
      from: { path: '^src/', pathNot: TESTS },
      to: { path: [TESTS, '^test/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^dist/|[.]d[.]ts$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};

// For scripts/check-layers.mjs (its `no-layer` rule), out of dependency-cruiser's sight.
Object.defineProperty(module.exports, 'layers', { value: LAYERS, enumerable: false });
