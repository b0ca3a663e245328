// The tunnels the proxy does not open (TLS to hosts no rule names, CONNECT to
// them): they still pass the egress Cedar policy, as action `connect` (the
// method inside is not visible), and are recorded as data accesses.
import type { AccessRecorder, EgressPolicy } from '../policy.ts';
import type { AccessSink, DataAccess, EgressAccess, EgressRule } from '../../contract/egress.ts';
import { formatDestination } from '../route.ts';

export function cedarTunnelPolicy(
  inner: EgressPolicy,
  access: EgressAccess,
  match: (host: string) => EgressRule | undefined,
): EgressPolicy {
  return {
    async decide(request) {
      const { host, port } = request.destination;
      const rule = match(host);
      const answer = await access.decide({
        host,
        port,
        action: 'connect',
        method: 'CONNECT',
        user: '',
        ...(rule ? { rule } : {}),
      });
      return answer.allow ? inner.decide(request) : answer;
    },
  };
}

const OUTCOMES: Record<string, DataAccess['outcome']> = {
  denied: 'denied',
  'upstream-error': 'upstream_error',
};

/** Records each finished tunnel (opened or refused) through the data-access sink. */
export function tunnelRecorder(sink: AccessSink): AccessRecorder {
  return {
    record(a) {
      sink.record({
        at: new Date().toISOString(),
        kind: 'tunnel',
        destination: formatDestination(a.destination),
        method: 'CONNECT',
        action: 'connect',
        outcome: OUTCOMES[a.outcome] ?? 'forwarded',
        bytesUp: a.bytesUp,
        bytesDown: a.bytesDown,
        durationMs: a.durationMs,
      });
    },
  };
}
