// Entry of a worker thread running a TypeScript module: the thread registers tsx itself (a
// thread does not inherit the `--import tsx` of its process), then loads the module.
import { workerData } from 'node:worker_threads';

import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
