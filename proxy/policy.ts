// Seams for the egress issue (policy, approvals, credential injection): the
// proxy asks `decide` before it connects anywhere and reports every finished
// connection to `record`. Today the policy is the model guard (guard.ts) and
// the recorder records nothing; the access log and metrics are written by the
// proxy itself.
import type { Destination } from './route.ts';

/** How the client reached the proxy. */
export type ConnectionKind = 'tls' | 'connect' | 'http';

export interface EgressRequest {
  kind: ConnectionKind;
  destination: Destination;
}

/** `address`: connect there instead of resolving the name again (the address the policy checked). */
export type EgressDecision = { allow: true; address?: string } | { allow: false; reason: string };

export interface EgressPolicy {
  /** Called once per connection, before the upstream connection is opened. */
  decide(request: EgressRequest): EgressDecision | Promise<EgressDecision>;
}

export interface AccessRecord extends EgressRequest {
  outcome: string;
  bytesUp: number;
  bytesDown: number;
  durationMs: number;
}

export interface AccessRecorder {
  /** Called once per routed connection when it ends; must not throw or block. */
  record(access: AccessRecord): void;
}

export const recordNothing: AccessRecorder = { record: () => undefined };
