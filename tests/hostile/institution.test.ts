import { hostileApiSuite, preloadDocuments } from './api-suite.js';

await preloadDocuments();
hostileApiSuite('institution');
