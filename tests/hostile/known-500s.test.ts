import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestContext, type TestContext } from '../support/context.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';
import { judge, listen, send } from './harness.js';
import { FORMER_500_EXAMPLES, KNOWN_500_CLASSES } from './known-500s.js';

/**
 * Each class of `KNOWN_500_CLASSES` by its smallest example: it must answer a 4xx with
 * `{code, message}`. Marked `it.fails` while listed; a class whose fix is in fails here until its
 * entry is moved to `FORMER_500_EXAMPLES`, so that the list never outlives the bug. Former
 * classes stay as plain regressions.
 */
describe('known and former 500 classes, each by its smallest example', () => {
  let t: TestContext;
  let served: Awaited<ReturnType<typeof listen>>;
  let credentials: Record<'institution' | 'partner', Record<string, string>>;

  beforeAll(async () => {
    t = await createTestContext();
    served = await listen(t.app);
    credentials = {
      institution: (await givenInstitution(t.ctx)).headers,
      partner: (await givenPartner(t.ctx)).headers,
    };
  });
  afterAll(async () => {
    await served?.close();
    await t?.close();
  });

  const cases = [
    ...KNOWN_500_CLASSES.map((c) => ({ ...c, known: true })),
    ...FORMER_500_EXAMPLES.map((c) => ({ ...c, known: false })),
  ];
  for (const { name, example, known } of cases) {
    const { api, method, path, headers, body } = example;
    (known ? it.fails : it)(`${name}: ${method} ${path} answers a 4xx with {code, message}`, async () => {
      const answer = await send(served.port, served.agent, {
        method,
        route: path,
        pathValues: {},
        query: [],
        headers: { ...credentials[api], ...headers },
        raw: body === undefined ? undefined : Buffer.from(body),
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      // Hosted pages answer their errors as pages, the APIs as JSON {code, message}.
      expect(judge(answer, false, !path.startsWith('/pay/') && !path.startsWith('/checkout/'))).toBeUndefined();
    });
  }
});
