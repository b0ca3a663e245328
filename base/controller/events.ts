// Kubernetes Events (events.k8s.io/v1) about the objects the operator manages,
// one per state change. Emitting never fails a reconcile: an Event that cannot
// be written is logged and counted, the state change itself already happened.
import { randomBytes } from 'node:crypto';
import * as k8s from '@kubernetes/client-node';
import type { Logger } from '../log.ts';
import type { ControllerMetrics } from './metrics.ts';
import { REPORTING } from '../../contract/kube.ts';

export interface EventSubject {
  apiVersion?: string;
  kind?: string;
  metadata?: k8s.V1ObjectMeta;
}

export interface EventSpec {
  type: 'Normal' | 'Warning';
  /** UpperCamelCase, e.g. `PhaseChanged`, `OwnersMissing`. */
  reason: string;
  /** What the controller did, e.g. `UpdateStatus`. */
  action: string;
  note: string;
}

export interface EventRecorderOptions {
  api: k8s.EventsV1Api;
  controller: string;
  /** This operator instance (the leader identity). */
  instance: string;
  log: Logger;
  metrics?: ControllerMetrics;
}

/** The Event object for `subject`; pure, so its shape is unit-tested. */
export function buildEvent(
  subject: EventSubject,
  spec: EventSpec,
  instance: string,
  now: Date,
): k8s.EventsV1Event {
  const meta = subject.metadata ?? {};
  const suffix = `${now.getTime().toString(16)}${randomBytes(2).toString('hex')}`;
  return {
    metadata: { name: `${meta.name ?? 'object'}.${suffix}`, namespace: meta.namespace ?? 'default' },
    eventTime: new k8s.V1MicroTime(now.getTime()),
    reportingController: REPORTING.operator,
    reportingInstance: instance.slice(0, 128),
    action: spec.action,
    reason: spec.reason,
    note: spec.note.slice(0, 1024),
    type: spec.type,
    regarding: {
      apiVersion: subject.apiVersion,
      kind: subject.kind,
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
    },
  };
}

export class EventRecorder {
  constructor(private readonly options: EventRecorderOptions) {}

  async emit(subject: EventSubject, spec: EventSpec): Promise<void> {
    const body = buildEvent(subject, spec, this.options.instance, new Date());
    try {
      await this.options.api.createNamespacedEvent({
        namespace: body.metadata?.namespace ?? 'default',
        body,
      });
      this.options.metrics?.events.inc({ controller: this.options.controller, reason: spec.reason });
    } catch (err) {
      this.options.log.warn(
        { err: String(err), reason: spec.reason, name: subject.metadata?.name },
        'could not record event',
      );
    }
  }
}
