// The network domain of the agent's Access Manifest, enforced where the
// agent's egress leaves the pod (decisions 139, 153). The proxy reads the
// manifest's tiers from the Verifier with the agent's Gateway key, keeps the
// last one it read, and refreshes it in the background; a destination the
// manifest does not permit is refused before the inner policy (the model
// guard) resolves it. Until a manifest has been read once, every destination
// is refused: an unknown manifest is not an empty one.
import { callJson } from '../base/http-client.ts';
import type { Logger } from '../base/log.ts';
import {
  effectiveManifest,
  hostPermitted,
  type AccessManifest,
  type EffectiveManifest,
} from '../policy/access-manifest.ts';
import type { EgressDecision, EgressPolicy, EgressRequest } from './policy.ts';
import { Refreshed } from './refreshed.ts';

/** Where the two tiers come from (the Verifier, or a test's stand-in with the same answers). */
export type ManifestFetch = () => Promise<{ organization?: AccessManifest; workspace?: AccessManifest }>;

interface TierView {
  access_manifest?: AccessManifest | null;
}

export function verifierManifestFetch(o: {
  verifierUrl: string;
  agentId: string;
  apiKey: string | undefined;
  timeoutMs?: number;
}): ManifestFetch {
  const url = `${o.verifierUrl.replace(/\/$/, '')}/v1/agents/${encodeURIComponent(o.agentId)}/access-manifest`;
  const headers: Record<string, string> = o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {};
  return async () => {
    const res = await callJson(url, { headers, timeoutMs: o.timeoutMs ?? 5000, maxBytes: 1 << 20 });
    if (res.status !== 200) throw new Error(`Verifier answered ${res.status} for the access manifest`);
    const body = JSON.parse(res.body.toString('utf8')) as { organization?: TierView; workspace?: TierView };
    return {
      organization: body.organization?.access_manifest ?? undefined,
      workspace: body.workspace?.access_manifest ?? undefined,
    };
  };
}

export interface ManifestPolicyOptions {
  fetch: ManifestFetch;
  log: Logger;
  /** Called with the outcome of every refresh (for metrics). */
  onRefresh?: (ok: boolean) => void;
}

/** Pure: the network domain's answer for one destination. */
export function networkDecision(manifest: EffectiveManifest | undefined, host: string): EgressDecision {
  if (!manifest) return { allow: false, reason: 'the access manifest has not been read yet' };
  if (hostPermitted(manifest, host)) return { allow: true };
  return { allow: false, reason: `${host} is outside the agent's Access Manifest (network)` };
}

export class ManifestPolicy implements EgressPolicy {
  private readonly source: Refreshed<EffectiveManifest>;

  constructor(
    private readonly inner: EgressPolicy,
    o: ManifestPolicyOptions,
  ) {
    this.source = new Refreshed({
      read: async () => {
        const tiers = await o.fetch();
        return effectiveManifest(tiers.organization, tiers.workspace);
      },
      what: 'access manifest',
      log: o.log,
      ...(o.onRefresh ? { onRefresh: o.onRefresh } : {}),
    });
  }

  /** Reads the manifest now (one read at a time); keeps the last one on failure. */
  refresh(): Promise<void> {
    return this.source.refresh();
  }

  /** Refreshes every `intervalMs` until `stop`. */
  start(intervalMs: number): Promise<void> {
    return this.source.start(intervalMs);
  }

  stop(): void {
    this.source.stop();
  }

  /** The effective manifest last read (undefined before the first read). */
  get current(): EffectiveManifest | undefined {
    return this.source.current;
  }

  get loaded(): boolean {
    return this.source.current !== undefined;
  }

  async decide(request: EgressRequest): Promise<EgressDecision> {
    const decision = networkDecision(await this.source.get(), request.destination.host.toLowerCase());
    return decision.allow ? this.inner.decide(request) : decision;
  }
}
