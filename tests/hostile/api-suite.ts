import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ApiName, listOperations, loadDocument, type OpenApiDocument } from '../../src/contract/documents.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';
import { judge, listen, send, snapshotQuery, urlOf } from './harness.js';
import { knownClassOf } from './known-500s.js';
import { mutationArbitrary, toWire } from './mutations.js';
import { validRequest } from './valid-request.js';

/** Base of every seed; the seed of an operation adds the hash of its id, so each is reproducible alone. */
export const HOSTILE_SEED = 20_260_301;
/** Malformed requests per operation. */
export const RUNS_PER_OPERATION = 50;

const seedOf = (api: ApiName, operationId: string) =>
  [...`${api}:${operationId}`].reduce((hash, char) => (Math.imul(hash, 31) + char.charCodeAt(0)) | 0, HOSTILE_SEED);

/**
 * Every operation of one document, implemented or not, meets malformed variants of a valid request
 * (its documented example): none may answer 5xx (but 501 NOT-IMPLEMENTED), take over 10 s, answer a
 * 4xx without `{code, message}`, or write a row when it refuses.
 */
export function hostileApiSuite(api: ApiName, share: { part: number; of: number } = { part: 0, of: 1 }): void {
  describe(`hostile requests to every operation of ${api}.yaml${share.of > 1 ? ` (share ${share.part + 1} of ${share.of})` : ''}`, () => {
    let t: TestContext;
    let doc: OpenApiDocument;
    let served: Awaited<ReturnType<typeof listen>>;
    let snapshot: () => Promise<string>;
    let credentials: Record<string, string>;
    const tolerated = new Map<string, number>();

    beforeAll(async () => {
      t = await createTestContext();
      doc = await loadDocument(api);
      served = await listen(t.app);
      snapshot = await snapshotQuery(t.ctx.sql);
      credentials =
        api === 'institution' ? (await givenInstitution(t.ctx)).headers : (await givenPartner(t.ctx)).headers;
    });
    afterAll(async () => {
      if (tolerated.size)
        console.log(
          `Known 500 classes met (KNOWN_500_CLASSES):\n  ${[...tolerated].map(([k, n]) => `${k}: ${n}`).join('\n  ')}`,
        );
      await served?.close();
      await t?.close();
    });

    // Operations join by being in the document; the list is read when the file is collected.
    // A share of the operations (every `of`-th), so that one document's suite can run on two workers.
    const operations = listOperations(loadDocumentSync(api)).filter((_, index) => index % share.of === share.part);
    for (const operation of operations) {
      const seed = seedOf(api, operation.operationId);
      it(`${operation.method.toUpperCase()} ${operation.path} (${operation.operationId}) never answers 5xx, always {code, message} on 4xx and writes nothing when refusing (seed ${seed})`, async () => {
        const valid = validRequest(doc, operation);
        const samples = fc.sample(mutationArbitrary(valid), { seed, numRuns: RUNS_PER_OPERATION });
        const failures: string[] = [];
        // Taken again after every answer: a refusal must leave it as it was, an acceptance may change it.
        let before = await snapshot();
        for (const [index, mutations] of [[], ...samples].entries()) {
          const request = toWire(valid, credentials);
          for (const mutation of mutations) mutation.apply(request);
          const answer = await send(served.port, served.agent, request);
          const after = await snapshot();
          const problem = judge(answer, answer.status >= 400 && after !== before);
          before = after;
          if (!problem) continue;
          const known =
            answer.status >= 500 || answer.status === 0
              ? knownClassOf(api, operation.operationId, mutations)
              : undefined;
          if (known) {
            tolerated.set(known, (tolerated.get(known) ?? 0) + 1);
            continue;
          }
          const what = mutations.map((m) => `${m.kind}: ${m.detail}`).join(' + ') || 'the valid request';
          failures.push(`#${index} ${request.method} ${urlOf(request).slice(0, 120)} [${what}] → ${problem}`);
        }
        expect(failures, `seed ${seed}: ${failures.length} of ${samples.length + 1} requests failed`).toEqual([]);
      }, 120_000);
    }
  });
}

/** The document read at collection time (tests are declared synchronously). */
function loadDocumentSync(api: ApiName): OpenApiDocument {
  const doc = documents.get(api);
  if (!doc) throw new Error(`preloadDocuments() was not awaited before hostileApiSuite('${api}')`);
  return doc;
}

const documents = new Map<ApiName, OpenApiDocument>();

/** Loads the documents before the suite declares its tests (top-level await in a test file). */
export async function preloadDocuments(): Promise<void> {
  for (const api of ['institution', 'partner'] as const) documents.set(api, await loadDocument(api));
}
