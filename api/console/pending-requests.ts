// Approval and consent requests on the console stream: each one that the
// API's informers see arrive while still pending becomes an
// `approval_requested` event (kubectl-made ones too, not only the API's).
// Every replica's informer sees the same add; the event's key (the object's
// uid) stores it once.
import type { ApprovalRequest, ConsentRequest } from '../../crds/generated/types.ts';
import type { InformerHandler } from '../../base/controller/informer.ts';
import type { ConsoleEventInput } from '../../contract/console.ts';
import { phaseOf } from '../approvals/model.ts';
import { consentPhaseOf } from '../delegations/model.ts';
import { approvalEvent, consentEvent } from './sources.ts';

interface Watched<T> {
  on(handler: InformerHandler<T>): void;
}

export interface PendingRequestSources {
  approvals: Watched<ApprovalRequest>;
  consents: Watched<ConsentRequest>;
  consentTtlMs: number;
  now: () => number;
  publish: (events: ConsoleEventInput[]) => unknown;
}

export function publishPendingRequests(o: PendingRequestSources): void {
  o.approvals.on((type, a) => {
    if (type === 'add' && phaseOf(a, o.now()) === 'pending') void o.publish([approvalEvent(a, o.now())]);
  });
  o.consents.on((type, c) => {
    if (type === 'add' && consentPhaseOf(c, o.now(), o.consentTtlMs) === 'pending')
      void o.publish([consentEvent(c, o.now())]);
  });
}
