// The agent container's own log lines on the console stream, followed
// through the Kubernetes API (`pods/log?follow=true&timestamps=true`) while
// some stream of this replica watches the agent. Each line becomes a `log`
// event keyed by pod, container, timestamp and order, so replicas following
// the same pod, or a follow resumed after a drop, store each line once.
import * as k8s from '@kubernetes/client-node';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseAgentId } from '../agents/model.ts';
import { LABEL } from '../../contract/kube.ts';
import type { ConsoleEventInput } from '../../contract/console.ts';
import type { Logger } from '../../base/log.ts';
import { logEvent } from './sources.ts';

export interface PodRef {
  name: string;
  uid: string;
  /** The agent's own container (not an injected `platform-*` sidecar). */
  container: string;
}

export interface FollowedLog {
  /** Settles when the log stream ends (the container stopped, the connection dropped). */
  done: Promise<void>;
  abort(): void;
}

/** Where the lines come from: the cluster (kubePodLogSource) in the API. */
export interface PodLogSource {
  findPod(namespace: string, agentName: string): Promise<PodRef | undefined>;
  follow(
    namespace: string,
    pod: PodRef,
    sinceTime: string,
    onLine: (line: string) => void,
  ): Promise<FollowedLog>;
}

/** `2026-11-25T05:00:00.123456789Z text` → its timestamp and text (a line without one keeps `fallback`). */
export function splitTimestamp(line: string, fallback: string): { timestamp: string; text: string } {
  const space = line.indexOf(' ');
  const head = space > 0 ? line.slice(0, space) : '';
  if (/^\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)$/.test(head))
    return { timestamp: head, text: line.slice(space + 1) };
  return { timestamp: fallback, text: line };
}

/** The running pod of the agent, newest first, and its agent container. */
export function agentPodOf(pods: readonly k8s.V1Pod[]): PodRef | undefined {
  const running = pods
    .filter((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp)
    .sort((a, b) =>
      String(b.metadata?.creationTimestamp).localeCompare(String(a.metadata?.creationTimestamp)),
    );
  const pod = running[0];
  const container = pod?.spec?.containers.find((c) => !c.name.startsWith('platform-'))?.name;
  if (!pod?.metadata?.name || !container) return undefined;
  return { name: pod.metadata.name, uid: pod.metadata.uid ?? pod.metadata.name, container };
}

/** Splits a byte stream into lines (the last, unterminated one waits for its newline or the end). */
class LineWriter extends Writable {
  private rest = '';
  constructor(private readonly onLine: (line: string) => void) {
    super({ decodeStrings: false });
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    const lines = (this.rest + chunk.toString()).split('\n');
    this.rest = lines.pop() ?? '';
    for (const line of lines) if (line) this.onLine(line.replace(/\r$/, ''));
    done();
  }
  override _final(done: () => void): void {
    if (this.rest) this.onLine(this.rest);
    done();
  }
}

export function kubePodLogSource(kc: k8s.KubeConfig): PodLogSource {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const logs = new k8s.Log(kc);
  return {
    async findPod(namespace, agentName) {
      const list = await core.listNamespacedPod({ namespace, labelSelector: `${LABEL.agent}=${agentName}` });
      return agentPodOf(list.items);
    },
    async follow(namespace, pod, sinceTime, onLine) {
      const sink = new LineWriter(onLine);
      const done = new Promise<void>((resolve) => {
        sink.once('finish', resolve);
        sink.once('close', resolve);
        sink.once('error', () => resolve());
      });
      const controller = await logs.log(namespace, pod.name, pod.container, sink, {
        follow: true,
        timestamps: true,
        sinceTime,
      });
      return { done, abort: () => controller.abort() };
    },
  };
}

interface Following {
  stopped: boolean;
  current?: FollowedLog;
}

export interface FollowerOptions {
  source: PodLogSource;
  publish: (events: ConsoleEventInput[]) => unknown;
  log: Logger;
  /** Wait before looking for the pod again (none running, or its log ended). */
  retryMs?: number;
}

/** One follow per watched agent; `watch` returns the function that stops it. */
export class PodLogFollowers {
  constructor(private readonly o: FollowerOptions) {}

  watch(agentId: string): () => void {
    const state: Following = { stopped: false };
    void this.run(agentId, state);
    return () => {
      state.stopped = true;
      state.current?.abort();
    };
  }

  private async run(agentId: string, state: Following): Promise<void> {
    // New lines only: the stream shows what happens from now on.
    const since = { value: new Date().toISOString() };
    while (!state.stopped) {
      try {
        await this.followOnce(agentId, state, since);
      } catch (err) {
        this.o.log.debug({ err, agent: agentId }, 'console: following the agent log failed; retrying');
      }
      if (!state.stopped) await sleep(this.o.retryMs ?? 2000);
    }
  }

  /** Follows the agent's running pod until its log ends; `since` moves with each line (a resume point). */
  private async followOnce(agentId: string, state: Following, since: { value: string }): Promise<void> {
    const { namespace, name } = parseAgentId(agentId);
    const pod = await this.o.source.findPod(namespace, name);
    if (!pod || state.stopped) return;
    const ordinals = new Map<string, number>();
    state.current = await this.o.source.follow(namespace, pod, since.value, (line) => {
      const { timestamp, text } = splitTimestamp(line, new Date().toISOString());
      since.value = timestamp;
      const ordinal = (ordinals.get(timestamp) ?? 0) + 1;
      ordinals.set(timestamp, ordinal);
      const where = { pod: pod.name, podUid: pod.uid, container: pod.container };
      void this.o.publish([logEvent({ agentId, ...where, timestamp, text, ordinal })]);
    });
    if (state.stopped) state.current.abort();
    await state.current.done;
  }
}
