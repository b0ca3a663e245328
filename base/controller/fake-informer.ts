// A stand-in for the API server behind client-node informers, for unit tests
// of the informer wrapper and the controller: no I/O, full control over
// lists, watch events and failures.
import type * as k8s from '@kubernetes/client-node';

type Callback = (arg?: unknown) => void;

export interface FakeObject extends k8s.KubernetesObject {
  metadata: { name: string; namespace?: string; resourceVersion: string };
  data?: string;
}

export function fakeObject(name: string, resourceVersion: string, data?: string): FakeObject {
  return { metadata: { name, namespace: 'ns', resourceVersion }, ...(data ? { data } : {}) };
}

class FakeInformer {
  private readonly callbacks = new Map<string, Callback[]>();
  private listed: FakeObject[] = [];
  stopped = false;

  constructor(private readonly server: FakeServer) {}

  on(verb: string, cb: Callback): void {
    const verbs = verb === 'change' ? ['add', 'update', 'delete'] : [verb];
    for (const v of verbs) this.callbacks.set(v, [...(this.callbacks.get(v) ?? []), cb]);
  }

  off(): void {}

  fire(verb: string, arg?: unknown): void {
    if (this.stopped) return;
    for (const cb of this.callbacks.get(verb) ?? []) cb(arg);
  }

  async start(): Promise<void> {
    this.server.starts++;
    if (this.server.failStarts > 0) {
      this.server.failStarts--;
      this.fire('error', new Error('connection refused'));
      return;
    }
    this.fire('connect');
    this.listed = [...this.server.objects.values()];
    for (const obj of this.listed) this.fire('add', obj);
    this.server.active = this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
  }

  list(): FakeObject[] {
    return this.listed;
  }

  get(): undefined {
    return undefined;
  }
}

export class FakeServer {
  readonly objects = new Map<string, FakeObject>();
  active: FakeInformer | undefined;
  starts = 0;
  failStarts = 0;

  factory = (): k8s.Informer<FakeObject> & k8s.ObjectCache<FakeObject> =>
    new FakeInformer(this) as unknown as k8s.Informer<FakeObject> & k8s.ObjectCache<FakeObject>;

  /** Changes the server state without a watch event (a silently stopped watch). */
  setQuietly(obj: FakeObject): void {
    this.objects.set(obj.metadata.name, obj);
  }

  deleteQuietly(name: string): void {
    this.objects.delete(name);
  }

  /** Changes the state and delivers the watch event. */
  put(obj: FakeObject): void {
    const existed = this.objects.has(obj.metadata.name);
    this.objects.set(obj.metadata.name, obj);
    this.active?.fire(existed ? 'update' : 'add', obj);
  }

  /** Breaks the current watch with an error (client-node then stops). */
  breakWatch(): void {
    this.active?.fire('error', new Error('watch failed: 500'));
  }
}
