/**
 * The dependency rules of the service (see docs/ARCHITECTURE.md). `npm run lint:deps` fails on any
 * violation; type-only imports count as much as the others.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const DOMAINS = '^src/(institution|partner|payments)/';
// A room's HTTP adapter, as jobs/ holds the worker's: the one kind of domain file that may use http/.
const HTTP_ADAPTER = '(^|/)[a-z-]*routes[.]ts$';

module.exports = {
  forbidden: [
    {
      name: 'core-imports-only-core',
      severity: 'error',
      comment: 'src/core/ is the kernel: errors, paging, money, dates… It imports itself and node built-ins only.',
      from: { path: '^src/core/' },
      to: { pathNot: ['^src/core/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'domain-not-http',
      severity: 'error',
      comment:
        'Domain code never imports the Express adapter; what it needs lives in core/ or contract/. Only routes files adapt a room to HTTP.',
      from: { path: DOMAINS, pathNot: HTTP_ADAPTER },
      to: { path: '^src/http/' },
    },
    {
      name: 'domain-not-jobs-or-dev',
      severity: 'error',
      comment:
        'Domain code enqueues through src/queue/; the worker (jobs/) and the development helpers (dev/) depend on it, never the other way.',
      from: { path: DOMAINS },
      to: { path: '^src/(jobs|dev)/' },
    },
    {
      name: 'payments-knows-no-tenant',
      severity: 'error',
      comment:
        'The payment provider abstraction knows nothing of institutions or sales: the composition root wires its listeners.',
      from: { path: '^src/payments/' },
      to: { path: '^src/(institution|partner|tenants)/' },
    },
    {
      name: 'contract-not-domain',
      severity: 'error',
      comment: 'The contract (documents and their schemas) is read by the domain, never the other way round.',
      from: { path: '^src/contract/' },
      to: { path: ['^src/(institution|partner|payments|http|jobs|queue|dev|db)/'] },
    },
    {
      name: 'metrics-knows-no-domain',
      severity: 'error',
      comment:
        'The metrics are instruments and database gauges (the queue read through src/queue/): HTTP and the worker record into them, never the other way.',
      from: { path: '^src/metrics/' },
      to: { path: '^src/', pathNot: '^src/(metrics|db|queue)/' },
    },
    {
      name: 'identity-knows-no-web',
      severity: 'error',
      comment:
        'People, passwords, sessions and links (src/identity/) serve every kind of tenant and every front end: they import the kernel, the database and the tenants, never Express, a page or a tenant domain.',
      from: { path: '^src/identity/' },
      to: { path: '^src/', pathNot: '^src/(core|db|tenants|identity)/' },
    },
    {
      name: 'panel-only-from-root',
      severity: 'error',
      comment: 'The partner panel (src/panel/) is an HTTP front end: only the composition root (app.ts) mounts it.',
      from: { path: '^src/', pathNot: ['^src/panel/', '^src/app[.]ts$'] },
      to: { path: '^src/panel/' },
    },
    {
      name: 'panel-is-an-adapter',
      severity: 'error',
      comment:
        'Panel pages call the domain services (identity/, tenants/, partner/…) as the API handlers do: no SQL of their own, no queue, no worker, no development helper.',
      from: { path: '^src/panel/' },
      to: { path: '^src/(db|queue|jobs|dev|cli)/' },
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
    exclude: { path: '^(generated|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
