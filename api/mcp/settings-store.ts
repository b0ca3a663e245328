// Where auditor settings live (SPEC "Inheritance badges"): Organization and
// PlatformWorkspace `spec.defaults.auditorSettings`, PlatformAgent
// `spec.auditorSettings`, each `<auditor_id>` → `<settingName>` →
// `{value, enforced}`. The `auditor_settings` tool reads and writes them
// through this small interface; the kube implementation writes one setting
// with a JSON merge patch (null removes it), so a concurrent write of
// another setting is never lost.
import * as k8s from '@kubernetes/client-node';
import type { Organization, PlatformAgent, PlatformWorkspace } from '../../crds/generated/types.ts';
import { orUndefinedOn404 } from '../../base/kube.ts';
import { PLURAL, resourceOf } from '../../contract/kube.ts';
import type { Owner } from '../policy/roles.ts';

export type SettingsScope = 'org' | 'workspace' | 'agent';

export interface SettingValue {
  value: unknown;
  enforced?: boolean;
}

/** `<auditor_id>` → `<settingName>` → `{value, enforced}`. */
export type AuditorSettings = Record<string, Record<string, SettingValue>>;

/** An org by name; a workspace or agent by namespace and name. */
export interface SettingsTarget {
  scope: SettingsScope;
  namespace?: string;
  name: string;
}

/** The settings stored at the target and at each scope above it (absent scopes left out). */
export interface StoredChain {
  org?: AuditorSettings;
  workspace?: AuditorSettings;
  agent?: AuditorSettings;
  /** The agent's share list (agent scope), for its permissions. */
  owners?: readonly Owner[];
}

export interface AuditorSettingsStore {
  /** undefined when the target does not exist. */
  chain(target: SettingsTarget): Promise<StoredChain | undefined>;
  /** Sets one setting at the target, or removes it (`undefined`). */
  write(
    target: SettingsTarget,
    auditorId: string,
    setting: string,
    value: SettingValue | undefined,
  ): Promise<void>;
}

const ORGS = resourceOf(PLURAL.organization);
const WORKSPACES = resourceOf(PLURAL.workspace);
const AGENTS = resourceOf(PLURAL.agent);
const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

type Read = <T>(target: SettingsTarget) => Promise<T | undefined>;

async function workspaceChain(read: Read, namespace: string, name: string): Promise<StoredChain | undefined> {
  const ws = await read<PlatformWorkspace>({ scope: 'workspace', namespace, name });
  if (!ws) return undefined;
  const orgName = ws.spec.organization;
  const org = orgName ? await read<Organization>({ scope: 'org', name: orgName }) : undefined;
  return { org: org?.spec.defaults?.auditorSettings, workspace: ws.spec.defaults?.auditorSettings };
}

async function agentChain(read: Read, namespace: string, name: string): Promise<StoredChain | undefined> {
  const agent = await read<PlatformAgent>({ scope: 'agent', namespace, name });
  if (!agent) return undefined;
  const above = agent.spec.workspace
    ? await workspaceChain(read, namespace, agent.spec.workspace)
    : undefined;
  return { ...above, agent: agent.spec.auditorSettings, owners: agent.spec.owners ?? [] };
}

/** The settings as the Organization, PlatformWorkspace and PlatformAgent resources hold them. */
export function kubeSettingsStore(kc: k8s.KubeConfig): AuditorSettingsStore {
  const api = kc.makeApiClient(k8s.CustomObjectsApi);
  const read: Read = <T>(t: SettingsTarget) =>
    orUndefinedOn404(
      t.scope === 'org'
        ? api.getClusterCustomObject({ ...ORGS, name: t.name })
        : api.getNamespacedCustomObject({
            ...(t.scope === 'agent' ? AGENTS : WORKSPACES),
            namespace: t.namespace ?? '',
            name: t.name,
          }),
    ) as Promise<T | undefined>;
  return {
    async chain(t) {
      if (t.scope === 'agent') return agentChain(read, t.namespace ?? '', t.name);
      if (t.scope === 'workspace') return workspaceChain(read, t.namespace ?? '', t.name);
      const org = await read<Organization>(t);
      return org ? { org: org.spec.defaults?.auditorSettings } : undefined;
    },
    async write(t, auditorId, setting, value) {
      const settings = { auditorSettings: { [auditorId]: { [setting]: value ?? null } } };
      const body = { spec: t.scope === 'agent' ? settings : { defaults: settings } };
      if (t.scope === 'org') {
        await api.patchClusterCustomObject({ ...ORGS, name: t.name, body }, MERGE);
        return;
      }
      const coords = t.scope === 'agent' ? AGENTS : WORKSPACES;
      await api.patchNamespacedCustomObject(
        { ...coords, namespace: t.namespace ?? '', name: t.name, body },
        MERGE,
      );
    },
  };
}
