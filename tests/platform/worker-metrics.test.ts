import { Writable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/http/logging.js';
import { startService } from '../../src/service.js';
import { createTestDatabase } from '../support/context.js';

describe('a worker process', () => {
  it('serves /metrics and /health on METRICS_PORT, counts the jobs its runners run by task and outcome, and logs no false crontab warning', async () => {
    const lines: string[] = [];
    const capture = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const database = await createTestDatabase();
    const config = { ...loadConfig({ NODE_ENV: 'test', DATABASE_URL: database.url }), port: 0, metricsPort: 0 };
    const service = await startService({ config, role: 'worker', logger: createLogger('info', capture) });
    try {
      expect(service.url).toBeUndefined();
      // On HOST, 127.0.0.1 unless set, as the API.
      expect(service.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${service.metricsUrl}/health`)).status).toBe(200);
      expect((await fetch(`${service.metricsUrl}/v1/parcela`)).status).toBe(404);

      // A job whose payload its task refuses: it throws once and is retried later.
      await service.ctx.sql`select graphile_worker.add_job('process-student-batch', '{}'::json)`;
      // The retry is counted when the task throws, the job's new run_at written a moment later (on a
      // loaded machine, after a scrape or two): both are polled for, up to one deadline.
      const series = [
        'edufin_job_duration_seconds_count{task="process-student-batch",outcome="retry"} 1',
        'edufin_jobs{task="process-student-batch",state="scheduled"} 1',
      ];
      let text = '';
      for (const deadline = Date.now() + 15_000; !series.every((s) => text.includes(s)) && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        text = await (await fetch(`${service.metricsUrl}/metrics`)).text();
      }
      for (const s of series) expect(text).toContain(s);
    } finally {
      await service.stop();
      await database.drop();
    }
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; level: number });
    expect(logged.some((l) => l.msg.includes('process-student-batch needs {batchId}'))).toBe(true);
    expect(logged.filter((l) => /crontab/i.test(l.msg))).toEqual([]);
  });
});
