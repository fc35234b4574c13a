// One request-shaped log line through the service's logger and destination, for
// tests/platform/log-lines.test.ts to run on a pseudo-terminal. NODE_ENV chooses the destination.
import type { NodeEnv } from '../../src/config.js';
import { createLogger, logDestination } from '../../src/http/logging.js';

const logger = createLogger('info', logDestination((process.env.NODE_ENV ?? 'development') as NodeEnv));
logger.info(
  { req: { id: 'sample', method: 'GET', url: '/areas/macro-areas' }, res: { statusCode: 200 }, responseTime: 7 },
  'request completed',
);
