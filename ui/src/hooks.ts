// Small hooks the pages share: load data with loading and error states.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { describeError } from './errors.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` now and whenever `deps` change or `reload` is called; keeps the last data on an error. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (d) => {
        if (!live) return;
        setData(d);
        setError(undefined);
        setLoading(false);
      },
      (err: unknown) => {
        if (!live) return;
        setError(describeError(err));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}

/** Calls `f` when another part of the page announces a change (api.ts announceChange). */
export function useOnChange(f: () => void): void {
  useEffect(() => {
    window.addEventListener('platform:changed', f);
    return () => window.removeEventListener('platform:changed', f);
  }, [f]);
}
