// Where the Gateway forwards an allowed model call. The agent calls its
// model's real base URL (`OPENAI_BASE_URL`, e.g. `http://10.88.0.1:11434/v1`)
// and the redirect hands the connection to the Gateway, so the request path
// already carries the base path (`/v1/chat/completions`): it is not added a
// second time. A path outside the base path (`/chat/completions`) is joined
// to it. Pure.

/** The URL an allowed request for `requestUrl` (path and query) goes to. */
export function modelTarget(modelUrl: string, requestUrl: string): string {
  const base = new URL(modelUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const request = requestUrl.startsWith('/') ? requestUrl : `/${requestUrl}`;
  const path = request.split('?')[0] ?? '/';
  const within = basePath === '' || path === basePath || path.startsWith(`${basePath}/`);
  return `${base.origin}${within ? '' : basePath}${request}`;
}
