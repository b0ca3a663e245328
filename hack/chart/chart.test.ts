import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyKnobs, splitImage, type K8sObject } from './knobs.ts';
import { chartFiles, crdFilesOf } from './render.ts';
import { TemplateBuilder, withNamespaceToken, wrapIf } from './template.ts';

describe('TemplateBuilder', () => {
  it('writes scalars, blocks, conditional items and the release namespace as template actions', () => {
    const t = new TemplateBuilder();
    const doc = withNamespaceToken(
      {
        metadata: { name: 'x', namespace: 'platform-system' },
        spec: {
          replicas: t.scalar('.Values.replicas'),
          containers: [
            {
              name: 'c',
              resources: t.block('.Values.resources'),
              env: [t.item('.Values.on', { name: 'A', value: t.scalar('.Values.a | quote') })],
            },
          ],
          url: 'http://svc.platform-system.svc:80',
        },
      },
      'platform-system',
    );
    expect(t.render([doc])).toBe(
      [
        'metadata:',
        '  name: x',
        '  namespace: "{{ .Release.Namespace }}"',
        'spec:',
        '  replicas: {{ .Values.replicas }}',
        '  containers:',
        '    - name: c',
        '      resources: {{- toYaml .Values.resources | nindent 8 }}',
        '      env:',
        '{{- if .Values.on }}',
        '        - name: A',
        '          value: {{ .Values.a | quote }}',
        '{{- end }}',
        '  url: http://svc.{{ .Release.Namespace }}.svc:80',
        '',
      ].join('\n'),
    );
  });

  it('refuses a placeholder used as another kind', () => {
    const t = new TemplateBuilder();
    expect(() => t.render([{ env: [t.scalar('.Values.x')] }])).toThrow(/is not a item where it stands/);
  });

  it('wraps a file in a condition', () => {
    expect(wrapIf('.Values.on', 'a: 1\n')).toBe('{{- if .Values.on }}\na: 1\n{{- end }}\n');
  });
});

describe('splitImage', () => {
  it('splits at the tag, not at a registry port', () => {
    expect(splitImage('localhost:5000/a/b:dev')).toEqual({ repository: 'localhost:5000/a/b', tag: 'dev' });
    expect(() => splitImage('localhost:5000/a/b')).toThrow(/has no tag/);
    expect(() => splitImage('a/b@sha256:00')).toThrow(/has no tag/);
  });
});

const deployment = (name: string, container: string, env: Record<string, string>): K8sObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'platform-system' },
  spec: {
    replicas: 2,
    template: {
      spec: {
        containers: [
          {
            name: container,
            image: 'r/p:1',
            imagePullPolicy: 'IfNotPresent',
            env: Object.entries(env).map(([k, v]) => ({ name: k, value: v })),
            resources: { requests: { cpu: '1' } },
          },
        ],
      },
    },
  },
});

function base(): K8sObject[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'platform-system' } },
    deployment('platform-operator', 'operator', {
      PLATFORM_AGENT_RUNTIME_CLASS: 'kata-qemu-tdx',
      PLATFORM_AGENT_IMAGE: 'r/agent:1',
      PLATFORM_MODEL_SERVER_IMAGE: 'r/model:1',
      PLATFORM_MODEL_SERVER_ARGS: '',
    }),
    deployment('platform-webhook', 'webhook', {
      PLATFORM_IMAGE: 'r/p:1',
      PLATFORM_STRICT_NOTARIZATION: 'true',
    }),
    deployment('platform-verifier', 'api', {}),
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'm' },
      webhooks: [{ name: 'a', failurePolicy: 'Fail' }],
    },
  ];
}

describe('applyKnobs', () => {
  it('reads the defaults from the base', () => {
    const d = applyKnobs(base(), new TemplateBuilder());
    expect(d).toMatchObject({
      image: { repository: 'r/p', tag: '1', pullPolicy: 'IfNotPresent' },
      agentImage: { repository: 'r/agent', tag: '1' },
      strictNotarization: true,
      webhookFailurePolicy: 'Fail',
      agentRuntimeClass: 'kata-qemu-tdx',
      roles: { verifier: { replicas: 2, resources: { requests: { cpu: '1' } } } },
    });
  });

  it('says which field of config/ it cannot place a value in', () => {
    const noRuntimeClass = base().filter((o) => o.metadata.name !== 'platform-operator');
    noRuntimeClass.push(deployment('platform-operator', 'operator', {}));
    expect(() => applyKnobs(noRuntimeClass, new TemplateBuilder())).toThrow(
      /container operator sets no value for PLATFORM_AGENT_IMAGE/,
    );
    const otherImage = base();
    const webhook = otherImage[2] as unknown as {
      spec: { template: { spec: { containers: { env: { name: string; value: string }[] }[] } } };
    };
    webhook.spec.template.spec.containers[0]!.env[0]!.value = 'r/other:1';
    expect(() => applyKnobs(otherImage, new TemplateBuilder())).toThrow(/PLATFORM_IMAGE r\/other:1 is not/);
  });
});

describe('chartFiles', () => {
  const sources = {
    base: base(),
    productionExtras: [],
    crds: { 'a.yaml': 'kind: CustomResourceDefinition\n' },
    version: '9.9.9',
  };

  it('writes Chart.yaml, values with the base defaults, one template per kind and the CRDs', () => {
    const files = chartFiles(sources);
    expect(parse(files['charts/agent-platform/Chart.yaml']!)).toMatchObject({
      version: '9.9.9',
      appVersion: '9.9.9',
    });
    expect(parse(files['charts/agent-platform/values.yaml']!)).toMatchObject({ image: { tag: '1' } });
    expect(files['charts/agent-platform/templates/namespaces.yaml']).toContain(
      '{{- if .Values.createNamespace }}',
    );
    expect(files['charts/agent-platform/crds/a.yaml']).toBe('kind: CustomResourceDefinition\n');
  });

  it('refuses an object the production overlay adds that no value covers', () => {
    const extra = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
    expect(() => chartFiles({ ...sources, productionExtras: [extra] })).toThrow(
      /production overlay adds ConfigMap\/c, which no chart value covers/,
    );
  });

  it('takes the CRD files of the generated files only', () => {
    expect(
      crdFilesOf({
        'crds/generated/a.yaml': 'a',
        'crds/generated/kustomization.yaml': 'k',
        'crds/generated/types.ts': 't',
      }),
    ).toEqual({ 'a.yaml': 'a' });
  });
});
