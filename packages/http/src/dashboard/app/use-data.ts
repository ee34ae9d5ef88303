/**
 * One report as the view needs it: fetched when its request changes, the previous answer
 * kept on screen (marked busy) until the new one arrives, stale answers dropped.
 */
import { useEffect, useState } from 'preact/hooks';
import { DataError, getData } from './api.js';

export interface Loaded<T> {
  /** The request (`path?query`) whose answer `data` is; the panels expose it as `data-query`. */
  query: string | undefined;
  data: T | undefined;
  error: string | undefined;
  busy: boolean;
}

/**
 * Fetches `dashboard/data/<path>?<params>` whenever that string changes, or `version` does (a
 * poll asks the same again); `params` undefined: nothing to fetch yet.
 */
export function useData<T>(path: string, params: URLSearchParams | undefined, version = 0): Loaded<T> {
  const request = params ? `${path}?${params}` : undefined;
  const [state, setState] = useState<Loaded<T>>({ query: undefined, data: undefined, error: undefined, busy: request !== undefined });
  useEffect(() => {
    if (!request || !params) return;
    const abort = new AbortController();
    setState((s) => ({ ...s, busy: true }));
    getData<T>(path, params, abort.signal).then(
      (data) => setState({ query: request, data, error: undefined, busy: false }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        const message = error instanceof DataError ? error.message : 'The server could not be reached.';
        setState({ query: request, data: undefined, error: message, busy: false });
      },
    );
    return () => abort.abort();
  }, [request, version]);
  return state;
}
