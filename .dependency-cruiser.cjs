/**
 * The dependency rules of the service (see docs/ARCHITECTURE.md). `npm run lint:deps` fails on any
 * violation; type-only imports count as much as the others.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const DOMAINS = '^src/(institution|partner|payments)/';
// A room's HTTP adapter, as jobs/ holds the worker's: the one kind of domain file that may use http/.
const HTTP_ADAPTER = '(^|/)[a-z-]*routes[.]ts$';

/**
 * What each room of `src/` may import besides itself: exactly the "May import" column of the table
 * in docs/ARCHITECTURE.md, with its note on the composition root (`context.ts`, `config.ts`).
 * `core/` has a rule of its own (npm packages count there); `cli/` may import anything.
 */
const MAY_IMPORT = {
  telemetry: [],
  contract: ['core/', 'config.ts'],
  pages: ['core/'],
  db: ['config.ts', 'telemetry/'],
  queue: ['db/', 'telemetry/'],
  tenants: ['db/', 'core/'],
  ledger: ['core/', 'db/'],
  payments: ['core/', 'db/', 'queue/', 'pages/', 'telemetry/', 'http/', 'context.ts', 'config.ts'],
  webhooks: ['core/', 'db/', 'queue/', 'telemetry/', 'context.ts', 'config.ts'],
  institution: [
    'core/',
    'contract/',
    'db/',
    'ledger/',
    'queue/',
    'pages/',
    'payments/',
    'webhooks/',
    'http/',
    'context.ts',
    'config.ts',
  ],
  partner: [
    'core/',
    'contract/',
    'db/',
    'ledger/',
    'queue/',
    'pages/',
    'payments/',
    'webhooks/',
    'telemetry/',
    'http/',
    'context.ts',
    'config.ts',
  ],
  metrics: ['db/', 'queue/'],
  identity: ['core/', 'db/', 'queue/', 'tenants/'],
  panel: [
    'core/',
    'contract/',
    'ledger/',
    'identity/',
    'tenants/',
    'partner/',
    'institution/',
    'pages/',
    'payments/',
    'webhooks/',
    'http/',
    'context.ts',
    'config.ts',
  ],
  http: ['core/', 'contract/', 'db/', 'tenants/', 'metrics/', 'telemetry/', 'context.ts', 'config.ts'],
  jobs: [
    'core/',
    'db/',
    'ledger/',
    'identity/',
    'institution/',
    'partner/',
    'payments/',
    'webhooks/',
    'queue/',
    'metrics/',
    'telemetry/',
    'context.ts',
    'config.ts',
  ],
  dev: ['db/', 'tenants/'],
};

const escape = (name) => name.replace(/[.]/g, '[.]');
const roomRules = Object.entries(MAY_IMPORT).map(([room, allowed]) => ({
  name: `${room}-imports-its-list`,
  severity: 'error',
  comment: `src/${room}/ imports itself and ${allowed.join(', ')} of src/ only (docs/ARCHITECTURE.md, "Rooms").`,
  from: { path: `^src/${room}/` },
  to: { path: '^src/', pathNot: `^src/(${[`${room}/`, ...allowed].map(escape).join('|')})` },
}));

module.exports = {
  forbidden: [
    {
      name: 'core-imports-only-core',
      severity: 'error',
      comment:
        'src/core/ is the kernel: errors, paging, money, dates… It imports itself, node built-ins and the types generated from the documents only.',
      from: { path: '^src/core/' },
      to: { pathNot: ['^src/core/', '^generated/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'core-types-only-from-generated',
      severity: 'error',
      comment: 'src/core/ takes the contract’s types from generated/, never code.',
      from: { path: '^src/core/' },
      to: { path: '^generated/', dependencyTypesNot: ['type-only'] },
    },
    ...roomRules,
    {
      name: 'domain-not-http',
      severity: 'error',
      comment:
        'Domain code never imports the Express adapter; what it needs lives in core/ or contract/. Only routes files adapt a room to HTTP.',
      from: { path: DOMAINS, pathNot: HTTP_ADAPTER },
      to: { path: '^src/http/' },
    },
    {
      name: 'express-only-in-adapters',
      severity: 'error',
      comment:
        'Express belongs to the HTTP adapters: http/, panel/, the page kit (pages/), app.ts and the rooms’ routes files. Domain code never sees a request.',
      from: { path: '^src/', pathNot: ['^src/(http|panel|pages)/', '^src/app[.]ts$', HTTP_ADAPTER] },
      to: { path: '(^|/)node_modules/(@types/)?express/' },
    },
    {
      name: 'panel-only-from-root',
      severity: 'error',
      comment:
        "The panel (src/panel/: the partners' and the universities' pages) is an HTTP front end: only the composition root (app.ts) mounts it.",
      from: { path: '^src/', pathNot: ['^src/panel/', '^src/app[.]ts$'] },
      to: { path: '^src/panel/' },
    },
    {
      name: 'queue-through-its-helpers',
      severity: 'error',
      comment:
        'Jobs are added through the typed helpers of src/queue/ (jobs.ts, webhook-jobs.ts), which own the tasks’ keys and options.',
      from: { path: '^src/', pathNot: '^src/queue/' },
      to: { path: '^src/queue/enqueue[.]ts$' },
    },
    {
      name: 'telemetry-sdk-by-import-only',
      severity: 'error',
      comment:
        'The OpenTelemetry SDK is loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set: src/telemetry/sdk.ts is reached through import() alone.',
      from: { path: '^src/', pathNot: '^src/telemetry/sdk[.]ts$' },
      to: { path: '^src/telemetry/sdk[.]ts$', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'opentelemetry-api-only',
      severity: 'error',
      comment:
        'Spans are made through @opentelemetry/api, a no-op without the SDK; the SDK, its exporters and resources belong to src/telemetry/sdk.ts.',
      from: { path: '^src/', pathNot: '^src/telemetry/sdk[.]ts$' },
      to: { path: '(^|/)node_modules/@opentelemetry/', pathNot: '(^|/)node_modules/@opentelemetry/api/' },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'Folders depend on each other one way only.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-module-cycles',
      severity: 'error',
      comment: 'Modules depend on each other one way only.',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
