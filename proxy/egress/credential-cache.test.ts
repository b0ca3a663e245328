import { describe, expect, it } from 'vitest';
import { CredentialCache, type Loaded } from './credential-cache.ts';

function setup(o: { keepOnError?: (err: unknown) => boolean; maxEntries?: number } = {}) {
  const clock = { ms: 1_000_000 };
  const cache = new CredentialCache<string>({ now: () => clock.ms, ...o });
  let loads = 0;
  const load =
    (lifetimeMs = 100_000, fail?: Error) =>
    (): Promise<Loaded<string>> => {
      loads += 1;
      return fail ? Promise.reject(fail) : Promise.resolve({ value: `v${loads}`, lifetimeMs });
    };
  return { clock, cache, load, loads: () => loads };
}

describe('CredentialCache', () => {
  it('serves the cached value until 80 % of its lifetime, then fetches anew', async () => {
    const { clock, cache, load, loads } = setup();
    expect(await cache.get('k', load())).toBe('v1');
    clock.ms += 79_999;
    expect(await cache.get('k', load())).toBe('v1');
    clock.ms += 1;
    expect(await cache.get('k', load())).toBe('v2');
    expect(loads()).toBe(2);
  });

  it('shares one fetch among concurrent callers of a key', async () => {
    const { cache, load, loads } = setup();
    const values = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', load())));
    expect(new Set(values)).toEqual(new Set(['v1']));
    expect(loads()).toBe(1);
  });

  it('keeps keys apart', async () => {
    const { cache, load } = setup();
    expect(await cache.get('a', load())).toBe('v1');
    expect(await cache.get('b', load())).toBe('v2');
    expect(await cache.get('a', load())).toBe('v1');
  });

  it('fetches anew after invalidate, and does not keep a fetch that began before it', async () => {
    const { cache, load, loads } = setup();
    const before = cache.get('k', load());
    cache.invalidate('k');
    expect(await before).toBe('v1');
    expect(await cache.get('k', load())).toBe('v2');
    cache.invalidate('k');
    expect(await cache.get('k', load())).toBe('v3');
    expect(loads()).toBe(3);
  });

  it('does not keep a value without a lifetime', async () => {
    const { cache, load } = setup();
    expect(await cache.get('k', load(0))).toBe('v1');
    expect(await cache.get('k', load(0))).toBe('v2');
  });

  it('serves the old value when a refresh fails transiently before it expires', async () => {
    const { clock, cache, load } = setup({ keepOnError: () => true });
    await cache.get('k', load());
    clock.ms += 90_000;
    expect(await cache.get('k', load(100_000, new Error('down')))).toBe('v1');
    clock.ms += 10_000;
    await expect(cache.get('k', load(100_000, new Error('down')))).rejects.toThrow('down');
  });

  it('drops the old value when a refresh fails finally', async () => {
    const { clock, cache, load } = setup({ keepOnError: () => false });
    await cache.get('k', load());
    clock.ms += 90_000;
    await expect(cache.get('k', load(100_000, new Error('revoked')))).rejects.toThrow('revoked');
    clock.ms -= 50_000;
    await expect(cache.get('k', load(100_000, new Error('revoked')))).rejects.toThrow('revoked');
  });

  it('keeps at most maxEntries keys, dropping the oldest', async () => {
    const { cache, load, loads } = setup({ maxEntries: 2 });
    await cache.get('a', load());
    await cache.get('b', load());
    await cache.get('c', load());
    expect(cache.size).toBe(2);
    await cache.get('c', load());
    await cache.get('a', load());
    expect(loads()).toBe(4);
  });
});
