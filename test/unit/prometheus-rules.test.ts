// config/prometheus: every metric an alert names is one the roles register
// (an alert on a misspelt series never fires, and promtool is not here to say
// so), and each ServiceMonitor selects a metrics Service of config/manager on
// a port that Service has.
import { join } from 'node:path';
import type { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ControllerMetrics } from '../../base/controller/metrics.ts';
import { newRegistry } from '../../base/ops-server.ts';
import { ConsoleMetrics } from '../../api/console/metrics.ts';
import { ApiMetrics } from '../../api/http/metrics.ts';
import { McpMetrics } from '../../api/mcp/metrics.ts';
import { WebhookMetrics } from '../../webhooks/metrics.ts';
import { kustomizeBuild, parseObjects } from './kustomize-build.ts';
import { readKustomization, repoRoot, type K8sObject } from './kustomize-tree.ts';
import { metricNamesOf } from './promql-names.ts';

/** The series names a registry exposes, histograms and summaries with their suffixes. */
function exposedNames(registry: Registry): string[] {
  return registry.getMetricsAsArray().flatMap((m) => {
    const { name, type } = m as unknown as { name: string; type: string };
    if (type === 'histogram') return [`${name}_bucket`, `${name}_sum`, `${name}_count`];
    if (type === 'summary') return [name, `${name}_sum`, `${name}_count`];
    return [name];
  });
}

/** Every series the operator, webhook and api roles register, built as their run.ts builds them. */
function registeredNames(): Set<string> {
  const operator = newRegistry('operator');
  new ControllerMetrics(operator);
  const webhook = newRegistry('webhook');
  new WebhookMetrics(webhook);
  const api = newRegistry('api');
  new ApiMetrics(api);
  new McpMetrics(api);
  new ConsoleMetrics(api);
  return new Set([operator, webhook, api].flatMap(exposedNames));
}

interface Rule {
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const built = parseObjects(kustomizeBuild('prometheus'));
const rules: Rule[] = built
  .filter((o) => o.kind === 'PrometheusRule')
  .flatMap((o) => (o.spec as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules));

describe('metricNamesOf', () => {
  it('finds the series and skips functions, keywords, labels, strings, durations and numbers', () => {
    const expr = `sum by (controller, le) (rate(a_total{route="POST /v1/x", status=~"5.."}[5m]))
      / on (controller) group_left sum without (pod) (b_seconds_count offset 1h) > 0.1
      or absent(c{name="d"}) unless min(e) - time() < 21 * 86400 and bool 1e-9`;
    expect(metricNamesOf(expr).sort()).toEqual(['a_total', 'b_seconds_count', 'c', 'e']);
  });
});

describe('config/prometheus', () => {
  it('has the alerts the issue asks for', () => {
    const names = rules.map((r) => r.alert);
    for (const alert of [
      'PlatformWebhookAdmissionErrors',
      'PlatformReconcileErrors',
      'PlatformWebhookCertificateExpiring',
      'PlatformEvidenceIntakeFailures',
      'PlatformLeaderMissing',
    ]) {
      expect(names).toContain(alert);
    }
  });

  it('names in every expression only series the roles register', () => {
    const registered = registeredNames();
    expect(registered.has('workqueue_depth')).toBe(true); // the registries are the real ones
    for (const rule of rules) {
      const names = metricNamesOf(rule.expr);
      expect(names.length, rule.alert).toBeGreaterThan(0);
      expect(
        names.filter((n) => !registered.has(n)),
        `${rule.alert}: ${rule.expr}`,
      ).toEqual([]);
    }
  });

  it('gives every alert a duration, a severity and a summary', () => {
    for (const rule of rules) {
      expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
      expect(['warning', 'critical'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
    }
  });

  it('has one ServiceMonitor per role, each matching a metrics Service and its port', () => {
    const services = readKustomization(join(repoRoot, 'config', 'default')).filter(
      (o) => o.kind === 'Service',
    );
    const monitors = built.filter((o) => o.kind === 'ServiceMonitor');
    expect(monitors.map((m) => m.metadata.name).sort()).toEqual([
      'platform-operator',
      'platform-verifier',
      'platform-webhook',
    ]);
    for (const monitor of monitors) {
      const spec = monitor.spec as {
        selector: { matchLabels: Record<string, string> };
        endpoints: { port: string }[];
      };
      const selected = services.filter((s) => matches(s, spec.selector.matchLabels));
      expect(
        selected.map((s) => s.metadata.name),
        monitor.metadata.name,
      ).toEqual([`${monitor.metadata.name}-metrics`]);
      const ports = (selected[0]!.spec as { ports: { name: string }[] }).ports.map((p) => p.name);
      for (const endpoint of spec.endpoints) expect(ports).toContain(endpoint.port);
    }
  });
});

function matches(o: K8sObject, labels: Record<string, string>): boolean {
  const own = (o.metadata as { labels?: Record<string, string> }).labels ?? {};
  return Object.entries(labels).every(([k, v]) => own[k] === v);
}
