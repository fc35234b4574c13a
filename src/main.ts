import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config, type Role } from './config.js';
import { createLogger } from './http/logging.js';
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
const logger = createLogger(config.logLevel);
const service = await startService({ config, role, logger });

if (service.demo) {
  console.log(`
Demo tenants created on this new database (keys are shown only now):
  Institution API  apikey:    ${service.demo.institution.apikey}
  Partner API      Api-Token: ${service.demo.partner.apiToken}
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

let signals = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (++signals > 1) process.exit(1); // a second Ctrl-C does not wait
    logger.info({ signal }, 'shutting down');
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
