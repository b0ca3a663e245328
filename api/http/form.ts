// `application/x-www-form-urlencoded` bodies (OAuth endpoints, RFC 6749 §3.2):
// parsed strictly, so a malformed body is a 400 that names the problem rather
// than a silently repaired one. Each parameter may appear once (RFC 6749
// §3.2: "Request and response parameters MUST NOT be included more than
// once"); an empty value counts as absent (§3.1). Pure.
import { badRequest } from '../../base/http-error.ts';

export const FORM_TYPE = 'application/x-www-form-urlencoded';

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw badRequest(`malformed form body: ${what} is not valid percent-encoded UTF-8`, 'malformed_form');
  }
}

/** The parameters of a form body; 400 `malformed_form` for bad encoding or a repeated parameter. */
export function parseForm(raw: string): Record<string, string> {
  const seen = new Map<string, string>();
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq), 'a parameter name');
    if (name === '') throw badRequest('malformed form body: a parameter without a name', 'malformed_form');
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1), `parameter ${JSON.stringify(name.slice(0, 40))}`);
    if (seen.has(name)) {
      throw badRequest(
        `form parameter ${JSON.stringify(name.slice(0, 40))} given more than once`,
        'malformed_form',
      );
    }
    seen.set(name, value);
  }
  // fromEntries defines own properties: a parameter named `__proto__` is just a name.
  return Object.fromEntries([...seen].filter(([, v]) => v !== ''));
}
