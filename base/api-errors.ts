// What a Kubernetes API failure means, in one line a user can act on.
// client-node's ApiException renders as several lines with the response
// headers; logs keep the status code and the apiserver's own message.

/** The status code of a client-node ApiException or a Kubernetes Status, if any. */
function statusCode(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; statusCode?: unknown };
  const code = typeof e.code === 'number' ? e.code : e.statusCode;
  return typeof code === 'number' ? code : undefined;
}

/** The apiserver's message from an ApiException body (a Status JSON or plain text). */
function bodyMessage(err: unknown): string {
  const body = (err as { body?: unknown }).body;
  if (typeof body !== 'string') return '';
  try {
    const status = JSON.parse(body) as { message?: unknown };
    if (typeof status.message === 'string') return status.message;
    if (typeof status === 'string') return status;
  } catch {
    // plain text
  }
  return body.trim();
}

export interface InformerFailure {
  /** One line for the log and /readyz. */
  message: string;
  /** The resource type is not served: a CRD not installed (or an API group disabled). */
  notServed: boolean;
}

/** `resource` as the informer names it: `platformagents.platform.io`, `pods`. */
export function describeInformerFailure(resource: string, err: unknown): InformerFailure {
  const code = statusCode(err);
  if (code === 404 && resource.includes('.'))
    return {
      message: `the CustomResourceDefinition ${resource} is not installed: install the CRDs first (kubectl apply -k config/crds, or an overlay, which includes them)`,
      notServed: true,
    };
  if (code === 404) return { message: `the API server does not serve ${resource} (404)`, notServed: true };
  return { message: apiErrorLine(err), notServed: false };
}

/** `HTTP 404: namespaces "x" not found` for an ApiException, the message of any other error. */
export function apiErrorLine(err: unknown): string {
  const code = statusCode(err);
  if (code !== undefined) {
    const detail = bodyMessage(err);
    return `HTTP ${code}${detail ? `: ${detail}` : ''}`;
  }
  return err instanceof Error ? err.message : String(err);
}
