import { hostileApiSuite, preloadDocuments } from './api-suite.js';

await preloadDocuments();
hostileApiSuite('partner', { part: 0, of: 2 });
