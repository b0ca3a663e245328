import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CALLBACK_CSP, callbackPage } from './oauth-page.ts';

const dataOf = (html: string): { message: Record<string, unknown>; origin: string | null } =>
  JSON.parse(/<script type="application\/json" id="outcome">(.*?)<\/script>/s.exec(html)?.[1] ?? '') as {
    message: Record<string, unknown>;
    origin: string | null;
  };

describe('callbackPage', () => {
  it('posts the connected outcome to the UI origin and says it in words', () => {
    const html = callbackPage(
      { state: 'S', status: 'connected', credential_id: 'ns.cred-x' },
      'https://p.example',
    );
    expect(dataOf(html)).toEqual({
      message: { type: 'platform-oauth', state: 'S', status: 'connected', credential_id: 'ns.cred-x' },
      origin: 'https://p.example',
    });
    expect(html).toContain('<p role="status">The credential is connected.');
    expect(html).toContain('<html lang="en">');
  });

  it('escapes what it shows and keeps the data block inert', () => {
    const evil = '</script><script>alert(1)</script>&';
    const html = callbackPage({ state: '', status: 'error', error: { code: 'x', message: evil } }, undefined);
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;/script&gt;');
    expect(dataOf(html).message.error).toEqual({ code: 'x', message: evil });
    expect(dataOf(html).origin).toBeNull();
  });

  it('allows exactly its own script and style by hash, nothing else', () => {
    const html = callbackPage({ state: 'S', status: 'connected' }, 'https://p.example');
    const script = /<script>(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    const style = /<style>(.*?)<\/style>/s.exec(html)?.[1] ?? '';
    const hash = (t: string) => `'sha256-${createHash('sha256').update(t).digest('base64')}'`;
    expect(CALLBACK_CSP).toContain(`script-src ${hash(script)}`);
    expect(CALLBACK_CSP).toContain(`style-src ${hash(style)}`);
    expect(CALLBACK_CSP).toContain("default-src 'none'");
    expect(script).toContain('postMessage(d.message,d.origin)');
    expect(script).toContain('window.close()');
  });
});
