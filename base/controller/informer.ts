// A watch that does not stop. client-node 1.x informers relist after 410 Gone
// but stop on any other error, and a watch can go quiet without an error. This
// wrapper keeps its own cache over successive client-node informers: it
// restarts on every error with exponential backoff, relists on a fixed period
// (a fresh list reconciles the cache: changed objects are updated, vanished
// ones deleted, unchanged ones produce no event) and reports staleness when
// neither an event nor a successful list happened for too long.
import * as k8s from '@kubernetes/client-node';
import type { Logger } from '../log.ts';
import { ItemExponentialRateLimiter } from './rate-limiter.ts';
import type { ControllerMetrics, InformerSource } from './metrics.ts';
import { objectKey } from './keys.ts';
import { describeInformerFailure } from '../api-errors.ts';

export type InformerEventType = 'add' | 'update' | 'delete';
/** `old` is the cached object an update replaced (undefined for adds and deletes). */
export type InformerHandler<T> = (type: InformerEventType, obj: T, old?: T) => void;
export type InformerFactory<T extends k8s.KubernetesObject> = () => k8s.Informer<T> & k8s.ObjectCache<T>;

export interface ResilientInformerOptions<T extends k8s.KubernetesObject> {
  /** Name for logs and metrics, e.g. `platformagents.platform.io`. */
  resource: string;
  /** Builds one client-node informer; called again on every restart and relist. */
  factory: InformerFactory<T>;
  log: Logger;
  metrics?: ControllerMetrics;
  /** A fresh list this often even when the watch seems healthy. Default 5 min. */
  relistIntervalMs?: number;
  /** Unhealthy when neither an event nor a list succeeded for this long. Default 3 × relist. */
  staleAfterMs?: number;
  restartBaseDelayMs?: number;
  restartMaxDelayMs?: number;
}

/** Builds client-node informers for a list function and watch path (the list applies the same selectors). */
export function informerFactory<T extends k8s.KubernetesObject>(
  kubeConfig: k8s.KubeConfig,
  watchPath: string,
  list: k8s.ListPromise<T>,
  { labelSelector, fieldSelector }: { labelSelector?: string; fieldSelector?: string } = {},
): InformerFactory<T> {
  if (fieldSelector === undefined)
    return () => k8s.makeInformer<T>(kubeConfig, watchPath, list, labelSelector);
  // `makeInformer` has no field selector; it is this ListWatch without one.
  return () =>
    new k8s.ListWatch<T>(watchPath, new k8s.Watch(kubeConfig), list, false, labelSelector, fieldSelector);
}

export class ResilientInformer<T extends k8s.KubernetesObject> implements InformerSource {
  readonly resource: string;
  private readonly cache = new Map<string, T>();
  private readonly handlers: InformerHandler<T>[] = [];
  private readonly backoff: ItemExponentialRateLimiter<string>;
  private readonly relistIntervalMs: number;
  private readonly staleAfterMs: number;
  private current: k8s.Informer<T> | undefined;
  private generation = 0;
  private syncedOnce = false;
  private healthy = false;
  private lastEventAtMs = Date.now();
  private stopped = true;
  private restartTimer: NodeJS.Timeout | undefined;
  private relistTimer: NodeJS.Timeout | undefined;
  private readonly syncWaiters: (() => void)[] = [];
  /** The last failure's one-line description, '' once a list succeeds. */
  private lastFailure = '';

  constructor(private readonly options: ResilientInformerOptions<T>) {
    this.resource = options.resource;
    this.relistIntervalMs = options.relistIntervalMs ?? 300_000;
    this.staleAfterMs = options.staleAfterMs ?? 3 * this.relistIntervalMs;
    this.backoff = new ItemExponentialRateLimiter(
      options.restartBaseDelayMs ?? 500,
      options.restartMaxDelayMs ?? 30_000,
    );
  }

  on(handler: InformerHandler<T>): void {
    this.handlers.push(handler);
  }

  /** Starts listing and watching; returns at once (see `waitForSync`). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.options.metrics?.trackInformer(this);
    this.relistTimer = setInterval(() => this.restart('relist'), this.relistIntervalMs);
    this.relistTimer.unref();
    this.restart('start');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.generation++;
    clearInterval(this.relistTimer);
    clearTimeout(this.restartTimer);
    this.options.metrics?.untrackInformer(this);
    const informer = this.current;
    this.current = undefined;
    await informer?.stop();
  }

  get(key: string): T | undefined {
    return this.cache.get(key);
  }

  list(): T[] {
    return [...this.cache.values()];
  }

  keys(): string[] {
    return [...this.cache.keys()];
  }

  /** True once the first list completed (the cache may be used). */
  isSynced(): boolean {
    return this.syncedOnce;
  }

  /** True while the current list+watch is up (false between an error and the next successful list). */
  isWatching(): boolean {
    return this.healthy;
  }

  lastEventAgeMs(): number {
    return Date.now() - this.lastEventAtMs;
  }

  /** '' when fresh; otherwise why the cache cannot be trusted (readiness). */
  staleness(): string {
    if (!this.syncedOnce)
      return `${this.resource}: not synced yet${this.lastFailure ? ` (${this.lastFailure})` : ''}`;
    return this.stalled();
  }

  /** '' unless no event and no list arrived for too long (liveness: a restart may help). */
  stalled(): string {
    const ageMs = this.lastEventAgeMs();
    if (ageMs > this.staleAfterMs)
      return `${this.resource}: no event or list for ${ageMs} ms (limit ${this.staleAfterMs} ms)`;
    return '';
  }

  waitForSync(timeoutMs: number): Promise<boolean> {
    if (this.syncedOnce) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.syncWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private restart(cause: 'start' | 'relist' | 'error'): void {
    if (this.stopped) return;
    if (cause !== 'start') this.options.metrics?.informerRestarts.inc({ resource: this.resource, cause });
    this.connect().catch((err: unknown) => this.onError(err));
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    clearTimeout(this.restartTimer);
    const previous = this.current;
    this.current = undefined;
    await previous?.stop();
    if (generation !== this.generation || this.stopped) return;
    const informer = this.options.factory();
    this.current = informer;
    const live = (): boolean => generation === this.generation && !this.stopped;
    let failed = false;
    informer.on('add', (obj) => live() && this.upsert(obj));
    informer.on('update', (obj) => live() && this.upsert(obj));
    informer.on('delete', (obj) => live() && this.remove(obj));
    informer.on('connect', () => live() && this.touch());
    informer.on('error', (err) => {
      failed = true;
      if (live()) this.onError(err);
    });
    await informer.start();
    if (!live()) return void (await informer.stop());
    if (!failed) this.markSynced(informer.list());
  }

  private markSynced(listed: readonly T[]): void {
    const present = new Set(listed.map((o) => objectKey(o)));
    for (const [key, obj] of this.cache) {
      if (present.has(key)) continue;
      this.cache.delete(key);
      this.emit('delete', obj);
    }
    this.healthy = true;
    this.lastFailure = '';
    this.backoff.forget('informer');
    this.touch();
    if (!this.syncedOnce) {
      this.syncedOnce = true;
      this.options.log.info({ resource: this.resource, objects: this.cache.size }, 'informer synced');
      for (const resolve of this.syncWaiters.splice(0)) resolve();
    }
  }

  private onError(err: unknown): void {
    if (this.stopped) return;
    this.healthy = false;
    const delayMs = this.backoff.whenMs('informer');
    const failure = describeInformerFailure(this.resource, err);
    // A missing CRD is an install error that retrying does not fix: say it once, as an error.
    if (failure.notServed && failure.message === this.lastFailure) {
      this.options.log.debug({ resource: this.resource, delayMs }, 'informer failed; restarting');
    } else {
      const fields = { resource: this.resource, err: failure.message, delayMs };
      if (failure.notServed) this.options.log.error(fields, failure.message);
      else this.options.log.warn(fields, 'informer failed; restarting');
    }
    this.lastFailure = failure.message;
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => this.restart('error'), delayMs);
    this.restartTimer.unref();
  }

  private upsert(obj: T): void {
    this.touch();
    // managedFields is large and no controller reads it (Istio's injector drops it too). The
    // object is shared with client-node's own cache, so clearing it in place frees both copies
    // (assigning undefined rather than `delete` keeps the object's shape).
    if (obj.metadata?.managedFields) obj.metadata.managedFields = undefined;
    const key = objectKey(obj);
    const previous = this.cache.get(key);
    const version = obj.metadata?.resourceVersion;
    if (previous && version !== undefined && previous.metadata?.resourceVersion === version) return;
    this.cache.set(key, obj);
    if (previous) this.emit('update', obj, previous);
    else this.emit('add', obj);
  }

  private remove(obj: T): void {
    this.touch();
    const key = objectKey(obj);
    if (!this.cache.delete(key)) return;
    this.emit('delete', obj);
  }

  private touch(): void {
    this.lastEventAtMs = Date.now();
  }

  private emit(type: InformerEventType, obj: T, old?: T): void {
    for (const handler of this.handlers) {
      try {
        handler(type, obj, old);
      } catch (err) {
        this.options.log.error({ err, resource: this.resource }, 'informer handler threw');
      }
    }
  }
}
