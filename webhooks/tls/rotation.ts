// Certificate rotation, top-down (after OPA's cert-controller): constants,
// options, the start loop, reload, refresh, injection of the CA bundle into
// the webhook configurations, reporting. Only the leader writes; every
// replica hot-reloads its serving certificate when the Secret changes (watch
// events: `secretChanged`, `configChanged`), so a replica that starts before
// any certificate exists waits (not ready) and serves as soon as the leader
// has issued one, and a Secret or caBundle changed by someone else is
// repaired within about a second (decision 96). Nothing here ever stops the
// process. With `manage: false` (cert-manager fills the Secret) nothing is
// issued, the certificate is only loaded, checked and reported.
import type * as k8s from '@kubernetes/client-node';
import { apiMessage, apiStatus } from '../../base/kube.ts';
import type { Logger } from '../../base/log.ts';
import type { WebhookMetrics } from '../metrics.ts';
import { issueCa, issueServing, type KeyPair, type Names } from '../../base/tls/certs.ts';
import { coalesced, type Coalesced } from './coalesced.ts';
import { inspect } from './x509.ts';
import {
  bundleFromSecretData,
  caBundlePem,
  certCondition,
  certificateReadiness,
  planRenewal,
  secretDataFromBundle,
  type CertBundle,
  type CertCondition,
} from './plan.ts';

// ---- constants (spec: Limits) -------------------------------------------------
export const VALIDITY_DAYS = 365;
export const CHECK_INTERVAL_MS = 24 * 3_600_000;
export const RENEW_BEFORE_MS = 30 * 86_400_000;
/** Safety net behind the watches: the Secret reloaded and the caBundles checked this often. */
export const DRIFT_CHECK_INTERVAL_MS = 10 * 60_000;
/** While no valid certificate is served or the last check failed, the Secret is read again this often. */
export const RELOAD_INTERVAL_MS = 5_000;
/** Watch events closer than this are one repair (a leader's own writes come back as events too). */
export const WATCH_DEBOUNCE_MS = 1_000;

// ---- options --------------------------------------------------------------------
export interface CertRotatorOptions {
  core: k8s.CoreV1Api;
  admission: k8s.AdmissionregistrationV1Api;
  /** Where the CA and serving certificate live. */
  secret: { namespace: string; name: string };
  /** Names the apiserver uses to reach the webhook (Service DNS names, extra SANs such as 127.0.0.1). */
  names: Names;
  /** Webhook configurations whose `caBundle` this rotator owns (every webhook in each). */
  mutatingConfig?: string;
  validatingConfig?: string;
  /** false: certificates come from elsewhere (cert-manager); load, check and report only. */
  manage: boolean;
  /** Only the leader writes the Secret and the configurations. */
  isLeader: () => boolean;
  /** Called with the serving certificate whenever it changes (hot reload). */
  onServingCertificate: (pair: KeyPair) => void;
  log: Logger;
  metrics?: WebhookMetrics;
  /** Injectable clock, for renewal tests. */
  now?: () => Date;
  checkIntervalMs?: number;
  driftCheckIntervalMs?: number;
  reloadIntervalMs?: number;
  watchDebounceMs?: number;
}

export interface RefreshResult {
  condition: CertCondition;
  /** Why certificates were issued in this refresh (empty when none were). */
  renewed: string[];
  /** Webhook configurations whose caBundle was written. */
  patchedConfigs: string[];
}

// ---- the rotator ----------------------------------------------------------------
export class CertRotator {
  private bundle: CertBundle = {};
  private served: KeyPair | undefined;
  /** resourceVersion of the Secret last loaded ('' when it did not exist). */
  private loadedVersion: string | undefined;
  private lastError = '';
  private lastCondition: CertCondition = {
    type: 'CertificateValid',
    status: 'False',
    reason: 'Missing',
    message: 'not loaded yet',
  };
  private timers: NodeJS.Timeout[] = [];
  private readonly now: () => Date;
  private readonly onSecretEvent: Coalesced;
  private readonly onConfigEvent: Coalesced;
  /** One piece of certificate work at a time in this replica: watch events, timers and callers queue here. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: CertRotatorOptions) {
    this.now = options.now ?? (() => new Date());
    const debounceMs = options.watchDebounceMs ?? WATCH_DEBOUNCE_MS;
    // A leader repairs a changed or deleted Secret (refresh); a follower serves what it holds now.
    const secretWork = (): Promise<unknown> =>
      this.options.manage && this.options.isLeader() ? this.refresh() : this.reload();
    this.onSecretEvent = coalesced(() => this.guarded(secretWork), debounceMs);
    this.onConfigEvent = coalesced(() => this.guarded(() => this.repairDrift()), debounceMs);
  }

  /**
   * First refresh now; then the watches drive reloads and repairs, a full
   * check runs every 24 h, a resync every 10 min, and the Secret is read every
   * few seconds only while nothing valid is served. Never throws: a Secret that
   * is missing, empty or unreadable is reported by `condition()` and `readiness()`.
   */
  async start(): Promise<void> {
    await this.guarded(() => this.refresh());
    const loop = (fn: () => Promise<unknown>, ms: number): void => {
      const t = setInterval(() => void this.guarded(fn), ms);
      t.unref();
      this.timers.push(t);
    };
    loop(() => this.retryWhileInvalid(), this.options.reloadIntervalMs ?? RELOAD_INTERVAL_MS);
    loop(() => this.refresh(), this.options.checkIntervalMs ?? CHECK_INTERVAL_MS);
    loop(() => this.resync(), this.options.driftCheckIntervalMs ?? DRIFT_CHECK_INTERVAL_MS);
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.onSecretEvent.cancel();
    this.onConfigEvent.cancel();
  }

  /** A watch event about the Secret (added, changed, deleted). */
  secretChanged(): void {
    this.onSecretEvent.trigger();
  }

  /** A watch event about one of the webhook configurations. */
  configChanged(): void {
    this.onConfigEvent.trigger();
  }

  private async retryWhileInvalid(): Promise<void> {
    if (this.lastCondition.status !== 'True' || this.lastError) await this.reload();
  }

  private async resync(): Promise<void> {
    await this.reload();
    await this.repairDrift();
  }

  condition(): CertCondition {
    return this.lastCondition;
  }

  /** The serving certificate handed to the server, when there is one. */
  serving(): KeyPair | undefined {
    return this.served;
  }

  /** '' when a valid certificate is served, else why not (for `/readyz`). */
  readiness(): string {
    const issuer = !this.options.manage
      ? 'an-external-issuer'
      : this.options.isLeader()
        ? 'this-replica'
        : 'the-leader';
    return certificateReadiness(this.lastCondition, this.secretRef(), issuer);
  }

  /** Runs a check; a failure is logged once per distinct message and, while nothing valid is served, reported. */
  private async guarded(check: () => Promise<unknown>): Promise<void> {
    try {
      await check();
      this.lastError = '';
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (message !== this.lastError)
        this.options.log.error({ err: message, secret: this.secretRef() }, 'certificate check failed');
      this.lastError = message;
      this.loadedVersion = undefined; // the next successful read reports afresh
      if (this.lastCondition.status !== 'True')
        this.lastCondition = {
          type: 'CertificateValid',
          status: 'False',
          reason: 'SecretUnreadable',
          message,
        };
    }
  }

  // ---- reload: what another replica (or cert-manager) wrote ----------------------
  /**
   * Reads the Secret and serves what changed in it. A leader that has no valid
   * certificate (it was elected while the Secret was empty, or its last write
   * failed) runs a full refresh instead, so it issues without waiting a day.
   */
  reload(): Promise<void> {
    return this.serially(() => this.reloadNow());
  }

  private async reloadNow(): Promise<void> {
    if (this.options.manage && this.options.isLeader() && this.lastCondition.status !== 'True') {
      await this.refreshNow();
      return;
    }
    const secret = await this.readSecret();
    const version = secret?.metadata?.resourceVersion ?? '';
    if (version === this.loadedVersion) return;
    this.loadedVersion = version;
    this.bundle = bundleFromSecretData(secret?.data);
    this.report(this.now());
  }

  // ---- refresh: load, renew when due (leader), inject, report -------------------
  refresh(): Promise<RefreshResult> {
    return this.serially(() => this.refreshNow());
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async refreshNow(): Promise<RefreshResult> {
    const now = this.now();
    const secret = await this.readSecret();
    this.loadedVersion = secret?.metadata?.resourceVersion ?? '';
    this.bundle = bundleFromSecretData(secret?.data);
    let renewed: string[] = [];
    if (this.options.manage && this.options.isLeader()) {
      const plan = planRenewal(this.bundle, this.options.names, now, RENEW_BEFORE_MS);
      if (plan.reasons.length) {
        const next = this.renew(plan, now);
        if (await this.writeSecret(secret, next)) {
          this.bundle = next;
          renewed = plan.reasons;
          this.options.log.info(
            { reasons: renewed, secret: this.secretRef() },
            'webhook certificate renewed',
          );
        }
      }
    }
    const patchedConfigs = await this.repairDriftNow();
    this.report(now);
    return { condition: this.lastCondition, renewed, patchedConfigs };
  }

  private renew(plan: ReturnType<typeof planRenewal>, now: Date): CertBundle {
    const ca = plan.renewCa ? issueCa(now, VALIDITY_DAYS) : (this.bundle.ca as KeyPair);
    const previousCaPem = plan.renewCa
      ? this.bundle.ca?.certPem
      : plan.dropPreviousCa
        ? undefined
        : this.bundle.previousCaPem;
    const serving = plan.renewServing
      ? issueServing(ca, this.options.names, now, VALIDITY_DAYS)
      : this.bundle.serving;
    return { ca, ...(previousCaPem ? { previousCaPem } : {}), ...(serving ? { serving } : {}) };
  }

  // ---- the Secret -------------------------------------------------------------------
  private secretRef(): string {
    return `${this.options.secret.namespace}/${this.options.secret.name}`;
  }

  private async readSecret(): Promise<k8s.V1Secret | undefined> {
    try {
      return await this.options.core.readNamespacedSecret(this.options.secret);
    } catch (err) {
      if (apiStatus(err) === 404) return undefined;
      throw new Error(`reading Secret ${this.secretRef()}: ${apiMessage(err)}`, { cause: err });
    }
  }

  /** Create, or replace at the read resourceVersion; a conflict means another writer won: false. */
  private async writeSecret(current: k8s.V1Secret | undefined, bundle: CertBundle): Promise<boolean> {
    const { namespace, name } = this.options.secret;
    const body: k8s.V1Secret = {
      metadata: {
        name,
        namespace,
        resourceVersion: current?.metadata?.resourceVersion,
        labels: { 'app.kubernetes.io/component': 'webhook-tls' },
      },
      type: 'kubernetes.io/tls',
      data: secretDataFromBundle(bundle),
    };
    try {
      if (current) await this.options.core.replaceNamespacedSecret({ namespace, name, body });
      else await this.options.core.createNamespacedSecret({ namespace, body });
      return true;
    } catch (err) {
      if (apiStatus(err) === 409) {
        this.options.log.info(
          { secret: this.secretRef() },
          'certificate Secret changed concurrently; using it next time',
        );
        return false;
      }
      throw new Error(`writing Secret ${this.secretRef()}: ${apiMessage(err)}`, { cause: err });
    }
  }

  // ---- inject the CA bundle into the webhook configurations (and repair drift) ---
  repairDrift(): Promise<string[]> {
    return this.serially(() => this.repairDriftNow());
  }

  private async repairDriftNow(): Promise<string[]> {
    if (!this.options.isLeader() || !this.bundle.ca) return [];
    const caBundle = Buffer.from(caBundlePem(this.bundle, this.now())).toString('base64');
    const adm = this.options.admission;
    const { mutatingConfig: m, validatingConfig: v, log } = this.options;
    const patched: string[] = [];
    const mutating: ConfigTarget<k8s.V1MutatingWebhookConfiguration> = {
      read: (name) => adm.readMutatingWebhookConfiguration({ name }),
      write: (name, body) => adm.replaceMutatingWebhookConfiguration({ name, body }),
    };
    const validating: ConfigTarget<k8s.V1ValidatingWebhookConfiguration> = {
      read: (name) => adm.readValidatingWebhookConfiguration({ name }),
      write: (name, body) => adm.replaceValidatingWebhookConfiguration({ name, body }),
    };
    if (m && (await injectInto(m, mutating, caBundle, log))) patched.push(m);
    if (v && (await injectInto(v, validating, caBundle, log))) patched.push(v);
    if (patched.length)
      this.options.log.info({ configs: patched }, 'caBundle written to webhook configurations');
    return patched;
  }

  // ---- report: hot reload, condition, metrics -----------------------------------
  private report(now: Date): void {
    const condition = certCondition(this.bundle, this.options.names, now);
    if (condition.status === 'False' && condition.message !== this.lastCondition.message) {
      this.options.log.error(
        { secret: this.secretRef(), reason: condition.reason },
        `webhook certificate problem: ${condition.message}`,
      );
    }
    this.lastCondition = condition;
    this.serveIfNew(condition);
    this.recordExpiry();
  }

  /** Hands a serving pair the server does not have yet to it (not while the condition says Missing). */
  private serveIfNew(condition: CertCondition): void {
    const serving = this.bundle.serving;
    if (!serving || serving.certPem === this.served?.certPem || condition.reason === 'Missing') return;
    this.served = serving;
    this.options.onServingCertificate(serving);
    this.options.log.info(
      { secret: this.secretRef(), condition: condition.reason },
      'serving certificate loaded',
    );
  }

  private recordExpiry(): void {
    for (const [label, pem] of [
      ['ca', this.bundle.ca?.certPem],
      ['serving', this.bundle.serving?.certPem],
    ] as const) {
      if (pem)
        this.options.metrics?.certExpiry.set({ certificate: label }, inspect(pem).notAfter.getTime() / 1000);
    }
  }
}

/** Sets `caBundle` on every webhook that lacks it; true when anything changed. */
function withCaBundle(
  webhooks: { clientConfig: k8s.AdmissionregistrationV1WebhookClientConfig }[] | undefined,
  caBundle: string,
): boolean {
  let changed = false;
  for (const hook of webhooks ?? []) {
    if (hook.clientConfig.caBundle !== caBundle) {
      hook.clientConfig.caBundle = caBundle;
      changed = true;
    }
  }
  return changed;
}

interface ConfigTarget<
  T extends { webhooks?: { clientConfig: k8s.AdmissionregistrationV1WebhookClientConfig }[] },
> {
  read: (name: string) => Promise<T>;
  write: (name: string, body: T) => Promise<unknown>;
}

/** Writes given up after this many conflicts in a row (another writer keeps changing the object). */
const CONFLICT_RETRIES = 5;

/**
 * Reads one configuration, sets the bundle where it differs, writes it back at
 * the read resourceVersion; a conflict (kubectl apply, another tool) reads again.
 * A missing configuration is logged, not fatal.
 */
async function injectInto<
  T extends { webhooks?: { clientConfig: k8s.AdmissionregistrationV1WebhookClientConfig }[] },
>(name: string, target: ConfigTarget<T>, caBundle: string, log: Logger): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await injectOnce(name, target, caBundle, log);
    } catch (err) {
      if (apiStatus(err) !== 409 || attempt >= CONFLICT_RETRIES)
        throw new Error(`writing webhook configuration ${name}: ${apiMessage(err)}`, { cause: err });
      log.info({ config: name, attempt }, 'webhook configuration changed concurrently; reading it again');
    }
  }
}

async function injectOnce<
  T extends { webhooks?: { clientConfig: k8s.AdmissionregistrationV1WebhookClientConfig }[] },
>(name: string, target: ConfigTarget<T>, caBundle: string, log: Logger): Promise<boolean> {
  let config: T;
  try {
    config = await target.read(name);
  } catch (err) {
    if (apiStatus(err) !== 404)
      throw new Error(`reading webhook configuration ${name}: ${apiMessage(err)}`, { cause: err });
    log.warn({ config: name }, 'webhook configuration not found; caBundle not injected');
    return false;
  }
  if (!withCaBundle(config.webhooks, caBundle)) return false;
  await target.write(name, config);
  return true;
}
