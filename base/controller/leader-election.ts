// Leader election on a coordination.k8s.io/v1 Lease. A candidate retries every
// retry period; the leader renews every retry period and steps down when it
// could not renew for the renew deadline (before its lease can expire for the
// others). On graceful shutdown the leader releases the lease so a peer takes
// over at once instead of after the lease duration. With a `status`, it
// reports `leader_election_master_status{name}`: 0 from construction, 1 while
// leading.
import type * as k8s from '@kubernetes/client-node';
import type { Logger } from '../log.ts';
import { apiStatus } from '../kube.ts';
import {
  decideLease,
  leaseRecordChanged,
  releasedLease,
  type LeaseSpecRecord,
  type LeaseTimings,
} from './lease-decision.ts';
import type { LeaderStatus } from './standard-metrics.ts';

export interface LeaderElectorOptions extends LeaseTimings {
  api: k8s.CoordinationV1Api;
  namespace: string;
  name: string;
  identity: string;
  log: Logger;
  onStartedLeading: () => void | Promise<void>;
  onStoppedLeading: () => void | Promise<void>;
  /** Where leadership of the lease `name` is published (`leader_election_master_status`). */
  status?: LeaderStatus;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function asMicroTime(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Date) return value.toISOString().replace(/Z$/, '000Z');
  return String(value);
}

function toRecord(lease: k8s.V1Lease | undefined): LeaseSpecRecord | undefined {
  if (!lease) return undefined;
  const s = lease.spec ?? {};
  return {
    holderIdentity: s.holderIdentity,
    leaseDurationSeconds: s.leaseDurationSeconds,
    acquireTime: asMicroTime(s.acquireTime),
    renewTime: asMicroTime(s.renewTime),
    leaseTransitions: s.leaseTransitions,
  };
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class LeaderElector {
  private leading = false;
  private stopped = false;
  private observed: LeaseSpecRecord | undefined;
  private observedAtMs = 0;
  private lastRenewMs = 0;
  private lastContactMs = Date.now();
  private lease: k8s.V1Lease | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: LeaderElectorOptions) {
    options.status?.set(options.name, false);
  }

  isLeader(): boolean {
    return this.leading;
  }

  /** The holder as last observed ('' when free). */
  currentHolder(): string {
    return this.observed?.holderIdentity ?? '';
  }

  /** Milliseconds since the lease API last answered. */
  contactAgeMs(): number {
    return Date.now() - this.lastContactMs;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Stops campaigning; a leader stops its work and releases the lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    if (this.leading) await this.stepDown('shutdown');
    await this.release();
  }

  private async run(): Promise<void> {
    const { retryPeriodMs } = this.options;
    while (!this.stopped) {
      const ok = await this.tryAcquireOrRenew();
      if (this.stopped) return;
      if (ok) {
        this.lastRenewMs = Date.now();
        if (!this.leading) await this.becomeLeader();
      } else if (this.leading && this.lostToPeer()) {
        await this.stepDown(`lease taken by ${this.currentHolder()}`);
      } else if (this.leading && Date.now() - this.lastRenewMs > this.options.renewDeadlineMs) {
        await this.stepDown('renew deadline passed');
      }
      // Jitter like client-go (factor 1.2) so candidates do not retry in lockstep.
      await sleep(this.leading ? retryPeriodMs : retryPeriodMs * (1 + Math.random() * 0.2));
    }
  }

  private lostToPeer(): boolean {
    const holder = this.currentHolder();
    return holder !== '' && holder !== this.options.identity;
  }

  private async becomeLeader(): Promise<void> {
    this.leading = true;
    this.options.status?.set(this.options.name, true);
    this.options.log.info({ lease: this.options.name, identity: this.options.identity }, 'became leader');
    await this.options.onStartedLeading();
  }

  private async stepDown(reason: string): Promise<void> {
    this.leading = false;
    this.options.status?.set(this.options.name, false);
    this.options.log.warn({ lease: this.options.name, reason }, 'stopped leading');
    await this.options.onStoppedLeading();
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    try {
      const attemptTimeoutMs = Math.max(this.options.retryPeriodMs, this.options.renewDeadlineMs / 2);
      return await withTimeout(this.attempt(), attemptTimeoutMs, 'lease update');
    } catch (err) {
      const status = apiStatus(err);
      if (status !== 409) this.options.log.warn({ err: String(err), status }, 'lease update failed');
      return false;
    }
  }

  private async attempt(): Promise<boolean> {
    const { api, namespace, name, identity, leaseDurationMs } = this.options;
    const lease = await this.read();
    const current = toRecord(lease);
    const nowMs = Date.now();
    this.lastContactMs = nowMs;
    if (leaseRecordChanged(current, this.observed)) {
      this.observed = current;
      this.observedAtMs = nowMs;
    }
    const decision = decideLease({
      current,
      identity,
      nowMs,
      observedAtMs: this.observedAtMs,
      leaseDurationMs,
    });
    if (decision.action === 'wait') return false;
    const spec = decision.spec as k8s.V1LeaseSpec;
    const written = lease
      ? await api.replaceNamespacedLease({ name, namespace, body: { ...lease, spec } })
      : await api.createNamespacedLease({ namespace, body: { metadata: { name, namespace }, spec } });
    this.lease = written;
    this.observed = toRecord(written);
    this.observedAtMs = nowMs;
    return true;
  }

  private async read(): Promise<k8s.V1Lease | undefined> {
    try {
      return await this.options.api.readNamespacedLease({
        name: this.options.name,
        namespace: this.options.namespace,
      });
    } catch (err) {
      if (apiStatus(err) === 404) return undefined;
      throw err;
    }
  }

  private async release(): Promise<void> {
    const lease = this.lease;
    const current = toRecord(lease);
    if (!lease || current?.holderIdentity !== this.options.identity) return;
    try {
      const spec = releasedLease(current, Date.now()) as k8s.V1LeaseSpec;
      await this.options.api.replaceNamespacedLease({
        name: this.options.name,
        namespace: this.options.namespace,
        body: { ...lease, spec },
      });
      this.options.log.info({ lease: this.options.name }, 'released lease');
    } catch (err) {
      this.options.log.warn({ err: String(err) }, 'could not release lease; peers take over when it expires');
    }
  }
}
