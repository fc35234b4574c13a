import { parseArgs } from 'node:util';

import { type Config, ConfigError, loadConfig, type Role } from './config.js';
import { createLogger, logDestination } from './http/logging.js';
import { surviveConnectionLoss } from './process-guards.js';
import { startService } from './service.js';

const { values } = parseArgs({ options: { role: { type: 'string', default: 'all' } } });
const role = values.role as Role;
if (!['all', 'api', 'worker'].includes(role)) {
  console.error(`--role must be all, api or worker, got "${role}"`);
  process.exit(2);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  // One line a process manager shows as is: what to set, and nothing started.
  console.error(`Configuration error: ${error.message}`);
  process.exit(78); // EX_CONFIG
}
// Before anything that makes spans or logs: the statement, request and job wrappers and the log
// lines' trace ids are installed only once tracing is on. Without the variable the SDK is never loaded.
const tracing = config.otlpEndpoint ? (await import('./telemetry/sdk.js')).startTracing(config) : undefined;
const logger = createLogger(config.logLevel, logDestination(config.env));
tracing?.reportProblems((message) => logger.warn({ otel: message }, 'tracing: spans not exported'));
surviveConnectionLoss(logger);
const starting = startService({ config, role, logger });
stopOnSignals();
const service = await starting;

if (service.demo) {
  console.log(`
Demo tenants created on this new database (keys are shown only now):
  Institution API  apikey:    ${service.demo.institution.apikey}
  Partner API      Api-Token: ${service.demo.partner.apiToken}
Their ids, for the operator commands: institution ${service.demo.institution.id}, partner ${service.demo.partner.id}
Issue more with: npm run admin -- --help
`);
}
const embedded = service.embeddedDataDir;
if (embedded && embedded !== config.embeddedPgDir) {
  console.log(`Embedded PostgreSQL data is in ${embedded}: the user postgres cannot reach ${config.embeddedPgDir}`);
}
if (service.url) {
  console.log(`Service listening on ${service.url} (role ${role}${config.databaseUrl ? '' : ', embedded PostgreSQL'})`);
  console.log(`  try: curl -H "Api-Token: <API_TOKEN>" ${service.url}/areas/micro-area-group/1`);
} else {
  console.log(`Worker running (role ${role})`);
}
if (service.metricsUrl) console.log(`Metrics on ${service.metricsUrl}/metrics`);

/**
 * SIGTERM or SIGINT stops gracefully (once started, when it comes during the start); another one, a
 * second or more later, stops at once. Copies of one stop request arrive together: the terminal and
 * npm both pass a Ctrl-C on, and a process manager that signals every process of the service
 * (systemd's control group) reaches this one directly and through `npm start`.
 */
function stopOnSignals(): void {
  let firstSignalAt: number | undefined;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (firstSignalAt !== undefined) {
        if (Date.now() - firstSignalAt >= 1_000) process.exit(1);
        return;
      }
      firstSignalAt = Date.now();
      logger.info({ signal }, 'shutting down');
      starting
        .then((service) => service.stop())
        // The spans still buffered are sent before the process exits.
        .then(() => tracing?.shutdown())
        .then(
          () => process.exit(0),
          (error: unknown) => {
            logger.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
    });
  }
}
