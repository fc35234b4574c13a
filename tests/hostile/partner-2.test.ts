import { hostileApiSuite, preloadDocuments } from './api-suite.js';

await preloadDocuments();
hostileApiSuite('partner', { part: 1, of: 2 });
