// The page the OAuth callback answers in the popup (decision 277): it tells
// the window that opened it how the connect ended
// (`postMessage({type: 'platform-oauth', state, status, credential_id?, error?}, <UI origin>)`)
// and closes itself; without script it says the outcome in words. The
// outcome rides in a JSON data block the one static script reads, so the
// script, and with it the page's CSP hash, never changes. Pure.
import { createHash } from 'node:crypto';

export interface CallbackOutcome {
  state: string;
  status: 'connected' | 'error';
  credential_id?: string;
  error?: { code: string; message: string };
}

const SCRIPT =
  "(function(){var d=JSON.parse(document.getElementById('outcome').textContent);" +
  'if(window.opener&&d.origin){window.opener.postMessage(d.message,d.origin);}window.close();})();';
const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:2rem;color:#1b1b1f;background:#fff}h1{font-size:1.25rem}';

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The page's own policy: nothing loads, only its script and style run, no framing, no forms. */
export const CALLBACK_CSP = [
  "default-src 'none'",
  `script-src ${sha256(SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const CALLBACK_HEADERS: Record<string, string> = {
  'content-security-policy': CALLBACK_CSP,
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** JSON safe inside a `<script type="application/json">` block: no `<`, `>`, `&` or line separators. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

function words(o: CallbackOutcome): { title: string; text: string } {
  if (o.status === 'connected') {
    return { title: 'Credential connected', text: 'The credential is connected. You can close this window.' };
  }
  const message = o.error?.message ?? 'the connection failed';
  return {
    title: 'The credential was not connected',
    text: `The credential was not connected: ${message} (${o.error?.code ?? 'error'}). Close this window and try again.`,
  };
}

/** The HTML page for `outcome`; `origin` is where the message may go (none: nothing is posted). */
export function callbackPage(outcome: CallbackOutcome, origin: string | undefined): string {
  const message = { type: 'platform-oauth', ...outcome };
  const { title, text } = words(outcome);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>`,
    '<body><main>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p role="status">${escapeHtml(text)}</p>`,
    '</main>',
    `<script type="application/json" id="outcome">${scriptJson({ message, origin: origin ?? null })}</script>`,
    `<script>${SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
