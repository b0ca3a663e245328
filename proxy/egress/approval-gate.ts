// Approval of a held call through the Verifier: the proxy asks for the action
// with the agent's Gateway key (`POST /v1/agents/{id}/actions`, which creates
// an ApprovalRequest for the agent's Owners, or returns the identical pending
// one) and polls `GET /v1/approvals/{id}` until an Owner decides, the request
// expires, or the proxy's hold time is over. Nothing is sent to the target
// meanwhile; the caller decides what the agent gets for each outcome.
import { setTimeout as sleep } from 'node:timers/promises';
import { callJson, type CallResult } from '../../base/http-client.ts';
import type { Logger } from '../../base/log.ts';
import type { ApprovalGate, ApprovalOutcome, HeldCall } from '../../contract/egress.ts';

export interface VerifierApprovalOptions {
  verifierUrl: string;
  agentId: string;
  apiKey: string | undefined;
  /** How long a call is held before the agent gets a timeout (the request stays pending for the Owner). */
  holdMs: number;
  /** First poll delay; doubles up to `maxPollMs`. */
  pollMs?: number;
  maxPollMs?: number;
  log: Logger;
  /** Called once per ApprovalRequest created or found (the `approval_requested` event). */
  onRequested?: (approvalId: string, call: HeldCall) => void;
}

interface ApprovalView {
  id?: string;
  phase?: string;
  reason?: string | null;
}

const base = (url: string): string => url.replace(/\/$/, '');

export class VerifierApprovalGate implements ApprovalGate {
  private readonly headers: Record<string, string>;

  constructor(private readonly o: VerifierApprovalOptions) {
    this.headers = o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {};
  }

  async hold(call: HeldCall, signal: AbortSignal): Promise<ApprovalOutcome> {
    let id: string;
    try {
      id = await this.request(call);
    } catch (err) {
      return { outcome: 'error', reason: (err as Error).message };
    }
    this.o.onRequested?.(id, call);
    return this.wait(id, signal);
  }

  /** Polls until a decision, the request's expiry, the hold time or the caller leaving. */
  private async wait(id: string, signal: AbortSignal): Promise<ApprovalOutcome> {
    const deadline = Date.now() + this.o.holdMs;
    let delay = this.o.pollMs ?? 500;
    while (!signal.aborted) {
      const decided = outcomeOf(id, await this.read(id).catch(() => undefined));
      if (decided) return decided;
      const left = deadline - Date.now();
      if (left <= 0) return { outcome: 'timeout', approvalId: id, reason: 'no Owner decided in time' };
      await sleep(Math.min(delay, left), undefined, { signal }).catch(() => undefined);
      delay = Math.min(delay * 2, this.o.maxPollMs ?? 5000);
    }
    return { outcome: 'timeout', approvalId: id, reason: 'the call was abandoned' };
  }

  private async request(call: HeldCall): Promise<string> {
    const url = `${base(this.o.verifierUrl)}/v1/agents/${encodeURIComponent(this.o.agentId)}/actions`;
    const res = await callJson(url, {
      method: 'POST',
      headers: this.headers,
      timeoutMs: 10_000,
      maxBytes: 1 << 20,
      body: {
        action: call.action,
        target: call.target,
        description: call.description,
        details: call.details,
      },
    });
    const view = approvalOf(res);
    if ((res.status === 200 || res.status === 201 || res.status === 202) && view?.id) return view.id;
    throw new Error(`the Verifier refused the approval request (${res.status}${codeOf(res)})`);
  }

  private async read(id: string): Promise<ApprovalView | undefined> {
    const url = `${base(this.o.verifierUrl)}/v1/approvals/${encodeURIComponent(id)}`;
    const res = await callJson(url, { headers: this.headers, timeoutMs: 10_000, maxBytes: 1 << 20 });
    return res.status === 200 ? approvalOf(res) : undefined;
  }
}

function outcomeOf(id: string, view: ApprovalView | undefined): ApprovalOutcome | undefined {
  switch (view?.phase) {
    case 'approved':
      return { outcome: 'approved', approvalId: id };
    case 'denied':
      return { outcome: 'denied', approvalId: id, reason: view.reason ?? 'an Owner denied it' };
    case 'expired':
      return { outcome: 'expired', approvalId: id, reason: 'the approval request expired' };
    default:
      return undefined;
  }
}

function parse(res: CallResult): Record<string, unknown> | undefined {
  try {
    return JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** `{approval: {...}}` (create, decide) or the view itself (GET). */
function approvalOf(res: CallResult): ApprovalView | undefined {
  const body = parse(res);
  if (!body) return undefined;
  const inner = body.approval as ApprovalView | undefined;
  return inner && typeof inner === 'object' ? inner : (body as ApprovalView);
}

function codeOf(res: CallResult): string {
  const code = parse(res)?.code;
  return typeof code === 'string' ? `: ${code}` : '';
}
