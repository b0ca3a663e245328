// Shared by the golden tests, the integration tests and the benchmark: one
// fixed injection configuration and in-memory stand-ins for the cluster.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger, type Logger } from '../../base/log.ts';
import type { ClusterView, PodEventSink } from '../cluster.ts';
import { buildDirectory, type RegisteredAuditor } from '../mutate/directory.ts';
import type { MutateOptions } from '../mutate/inject.ts';

export const FIXTURE_DIR = join(import.meta.dirname, '../../test/fixtures/admission');

export const DIGEST_A = `sha256:${'a'.repeat(64)}`;
export const PLATFORM_IMAGE = `registry.example/platform@${DIGEST_A}`;

export function testMutateOptions(overrides: Partial<MutateOptions> = {}): MutateOptions {
  return {
    directory: buildDirectory(PLATFORM_IMAGE, [
      { id: 'acme-pii', image: `registry.example/acme-pii@sha256:${'b'.repeat(64)}` },
      { id: 'acme-secrets', image: 'registry.example/acme-secrets:2.1', port: 8080 },
      { id: 'acme-legacy', image: `registry.example/acme-legacy@sha256:${'c'.repeat(64)}`, port: 8091 },
    ]),
    images: { gateway: PLATFORM_IMAGE, proxy: PLATFORM_IMAGE, init: PLATFORM_IMAGE },
    modelUrl: 'https://models.example/v1',
    verifierUrl: 'http://platform-verifier.platform-system.svc:8000',
    teeProvider: 'MOCK',
    nativeSidecars: true,
    redirect: { modelCidrs: ['10.96.10.0/24'], modelPorts: [11434], excludeCidrs: ['10.96.0.1/32'] },
    apiKeySecret: { name: 'platform-api-key', key: 'api-key' },
    excludedNamespaces: ['platform-system', 'kube-system'],
    ...overrides,
  };
}

export function fakeCluster(
  namespaceLabels: Record<string, string> | undefined,
  chainConfig?: Record<string, string>,
  registered: readonly RegisteredAuditor[] = [],
): ClusterView {
  return {
    namespaceLabels: async () => namespaceLabels,
    chainConfig: async () => chainConfig,
    registeredAuditor: async (id) => registered.find((r) => r.auditorId === id),
  };
}

export interface RecordedEvent {
  namespace: string;
  podName: string;
  note: string;
}

export function recordingEvents(): PodEventSink & { recorded: RecordedEvent[] } {
  const recorded: RecordedEvent[] = [];
  return {
    recorded,
    invalidAnnotations: (namespace, podName, note) => void recorded.push({ namespace, podName, note }),
  };
}

export function quietLogger(): Logger {
  return createLogger('webhook-test', { level: 'silent' });
}

export interface MutateFixture {
  description: string;
  namespace: string;
  namespaceLabels: Record<string, string>;
  configMap: Record<string, string> | null;
  /** AuditorRegistrations in the cluster (their specs). */
  registered?: RegisteredAuditor[];
  options?: Partial<Pick<MutateOptions, 'nativeSidecars' | 'redirect'>>;
  dryRun?: boolean;
  pod: Record<string, unknown>;
}

/** Every `<case>.input.json` under the fixture directory, by case name. */
export function loadMutateFixtures(dir = FIXTURE_DIR): Map<string, MutateFixture> {
  const out = new Map<string, MutateFixture>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.input.json'))
    .sort()) {
    out.set(
      file.replace(/\.input\.json$/, ''),
      JSON.parse(readFileSync(join(dir, file), 'utf8')) as MutateFixture,
    );
  }
  return out;
}

/** The AdmissionReview the apiserver would send for a fixture. */
export function reviewFor(fixture: MutateFixture, uid = 'golden-uid'): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      requestKind: { group: '', version: 'v1', kind: 'Pod' },
      namespace: fixture.namespace,
      operation: 'CREATE',
      userInfo: { username: 'golden' },
      object: fixture.pod,
      dryRun: fixture.dryRun === true,
    },
  });
}
