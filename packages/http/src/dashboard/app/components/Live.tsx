/**
 * Visitors in the last five minutes, asked for again every 30 seconds at most (read-api.md's
 * polling advice), and not while the tab is hidden.
 */
import { useEffect, useState } from 'preact/hooks';
import { getData } from '../api.js';
import { formatCount } from '../format.js';

/** Least time between two requests for the live count. */
export const LIVE_REFRESH_MS = 30_000;

export function Live({ site }: { site: string }) {
  const [live, setLive] = useState<number | undefined>(undefined);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const abort = new AbortController();
    const tick = async () => {
      if (!document.hidden) {
        try {
          const body = await getData<{ live: number }>('live', new URLSearchParams({ site_id: site }), abort.signal);
          if (!stopped) setLive(body.live);
        } catch {
          if (!stopped) setLive(undefined);
        }
      }
      if (!stopped) timer = setTimeout(tick, LIVE_REFRESH_MS);
    };
    setLive(undefined);
    void tick();
    return () => {
      stopped = true;
      abort.abort();
      clearTimeout(timer);
    };
  }, [site]);
  return (
    <p class="live" data-panel="live">
      <span class="dot" aria-hidden="true" />
      {live === undefined ? 'Live: –' : `${formatCount(live)} ${live === 1 ? 'visitor' : 'visitors'} in the last 5 minutes`}
    </p>
  );
}
