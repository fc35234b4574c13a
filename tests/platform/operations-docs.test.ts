import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';
import YAML from 'yaml';

import { projectRoot } from '../../src/config.js';
import { createMetrics } from '../../src/metrics/metrics.js';

/** Every series name GET /metrics can answer: the registry's metrics, histograms with their three series. */
async function exportedNames(): Promise<Set<string>> {
  const metrics = createMetrics();
  metrics.collectProcessMetrics();
  const names = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    if (String(metric.type) === 'histogram')
      for (const end of ['_bucket', '_sum', '_count']) names.add(metric.name + end);
    else names.add(metric.name);
  }
  return names;
}

const PROMQL_WORDS = new Set(
  [
    'sum avg min max count stddev stdvar topk bottomk quantile count_values group',
    'rate irate increase delta idelta deriv histogram_quantile clamp_min clamp_max abs absent absent_over_time',
    'avg_over_time max_over_time min_over_time sum_over_time label_replace vector scalar time',
    'by without on ignoring group_left group_right bool and or unless offset',
  ]
    .join(' ')
    .split(' '),
);

/** The metric names an expression reads: what is left once strings, matchers, groupings, ranges, numbers and functions are gone. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b\d+(\.\d+)?([eE][+-]?\d+)?\b/g, '');
  return (bare.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? []).filter((word) => !PROMQL_WORDS.has(word));
}

function dashboardExpressions(): string[] {
  const dashboard = JSON.parse(fs.readFileSync(path.join(projectRoot, 'docs', 'grafana-dashboard.json'), 'utf8')) as {
    panels: {
      id: number;
      type: string;
      gridPos?: unknown;
      datasource?: { uid: string };
      targets?: { expr: string }[];
    }[];
    __inputs: { name: string; pluginId: string }[];
  };
  expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', pluginId: 'prometheus' })]);
  expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
  const charts = dashboard.panels.filter((p) => p.type !== 'row');
  for (const panel of charts) {
    expect(panel.gridPos, `panel ${panel.id}`).toBeDefined();
    expect(panel.datasource?.uid, `panel ${panel.id}`).toBe('${DS_PROMETHEUS}');
  }
  return charts.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
}

function alertExpressions(): string[] {
  const rules = YAML.parse(fs.readFileSync(path.join(projectRoot, 'docs', 'prometheus-alerts.yml'), 'utf8')) as {
    groups: { name: string; rules: { alert: string; expr: string; labels: { severity: string } }[] }[];
  };
  const all = rules.groups.flatMap((g) => g.rules);
  expect(new Set(all.map((r) => r.alert)).size).toBe(all.length);
  for (const rule of all) expect(['critical', 'warning', 'info'], rule.alert).toContain(rule.labels.severity);
  return all.map((r) => r.expr);
}

describe('docs/OPERATIONS.md: the dashboard and the alert rules', () => {
  it.each([
    ['docs/grafana-dashboard.json', dashboardExpressions],
    ['docs/prometheus-alerts.yml', alertExpressions],
  ])('every expression of %s reads metrics the service exports', async (_file, expressions) => {
    const exported = await exportedNames();
    const unknown: string[] = [];
    const list = expressions();
    expect(list.length).toBeGreaterThan(5);
    for (const expr of list) {
      const names = metricNames(expr);
      expect(names.length, expr).toBeGreaterThan(0);
      unknown.push(...names.filter((name) => !exported.has(name)).map((name) => `${name} in ${expr}`));
    }
    expect(unknown).toEqual([]);
  });

  it('the alerts cover failing deliveries, late jobs, stuck batches, 5xx answers and a saturated pool', () => {
    const exprs = alertExpressions().join('\n');
    for (const metric of [
      'edufin_webhook_attempts_total{outcome="failed"}',
      'edufin_oldest_due_job_age_seconds',
      'edufin_oldest_unfinished_batch_age_seconds',
      'edufin_http_request_duration_seconds_count{status=~"5.."}',
      'edufin_db_pool_max_connections',
    ])
      expect(exprs).toContain(metric);
  });

  it('finds the names in an expression and nothing else', () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le, operation) (rate(edufin_http_request_duration_seconds_bucket{status=~"5.."}[5m]))) > 2',
      ),
    ).toEqual(['edufin_http_request_duration_seconds_bucket']);
    expect(metricNames('a_metric / ignoring(state) b_metric > 0.9')).toEqual(['a_metric', 'b_metric']);
  });
});
