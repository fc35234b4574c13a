import { createHash } from 'node:crypto';
import fs from 'node:fs';

import request from 'supertest';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';

import { bundleSources } from '../../src/cli/bundle.js';
import { loadDocument } from '../../src/contract/documents.js';
import { docsHtmlPath } from '../../src/http/docs.js';
import { useTestContext } from '../support/context.js';

describe('docs and raw documents', () => {
  const t = useTestContext();

  for (const api of ['institution', 'partner'] as const) {
    it(`serves the bundled ${api} document as YAML without credentials`, async () => {
      const res = await request(t.app).get(`/openapi/${api}.yaml`).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/yaml/);
      const served = YAML.parse(res.text);
      expect(served).toEqual(await loadDocument(api));
      expect(JSON.stringify(served)).not.toMatch(/"\$ref":"[^#]/); // every external $ref pulled in
    });

    it(`serves the ${api} reference page as the build wrote it`, async () => {
      const res = await request(t.app).get(`/docs/${api}`).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('<html');
      expect(res.text).toContain(api === 'institution' ? 'Institution API' : 'Partner API');
      expect(res.text).not.toMatch(/<script[^>]+src="https?:/); // self-contained, no CDN
      expect(res.text).toBe(fs.readFileSync(docsHtmlPath(api), 'utf8'));
      // Its Content-Security-Policy lets exactly its own inline scripts run.
      const inline = [...res.text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map(
        ([, body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`,
      );
      const policy = String(res.headers['content-security-policy']);
      expect(policy).toMatch(/^default-src 'none'; script-src 'sha256-[^;]+; style-src 'unsafe-inline';/);
      expect(policy.match(/'sha256-[^']+'/g)!.sort()).toEqual([...new Set(inline)].sort());
      expect(policy).toContain("frame-ancestors 'none'");
    });

    it(`serves the ${api} document bundled by the build as the generators bundle its sources`, async () => {
      expect(await loadDocument(api)).toEqual(await bundleSources(api));
    });
  }

  it('answers 404 for an unknown page', async () => {
    const res = await request(t.app).get('/docs/unknown').expect(404);
    expect(res.body.code).toBe('NOT-FOUND');
  });
});
