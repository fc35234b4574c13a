// One request-shaped log line through the service's logger and destination, for
// tests/platform/log-lines.test.ts to run on a pseudo-terminal or a pipe. NODE_ENV chooses the
// destination; with SAMPLE_FATAL the process then fails as an uncaught error does.
import type { NodeEnv } from '../../src/config.js';
import { createLogger, logDestination } from '../../src/http/logging.js';
import { surviveConnectionLoss } from '../../src/process-guards.js';

const logger = createLogger('info', logDestination((process.env.NODE_ENV ?? 'development') as NodeEnv));
logger.info(
  { req: { id: 'sample', method: 'GET', url: '/areas/macro-areas' }, res: { statusCode: 200 }, responseTime: 7 },
  'request completed',
);
if (process.env.SAMPLE_FATAL) {
  surviveConnectionLoss(logger);
  setImmediate(() => {
    throw new Error('sample failure');
  });
}
