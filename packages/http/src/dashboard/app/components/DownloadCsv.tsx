/**
 * "Download CSV" of a panel: the panel's own request (`dashboard/data/<path>?<query>`, the
 * API through the session) with `format=csv`, so the file holds exactly the rows the panel
 * shows, filters and comparison included. A plain link: the browser saves what the server
 * names in `Content-Disposition`; an error (an ended session) comes back as the API's JSON.
 */
import type { Loaded } from '../use-data.js';

export function DownloadCsv({ loaded, label }: { loaded: Loaded<unknown>; label: string }) {
  if (loaded.query === undefined) return null;
  const href = `dashboard/data/${loaded.query}${loaded.query.includes('?') ? '&' : '?'}format=csv`;
  return <a class="download" href={href} download aria-label={`Download CSV of ${label}`}>Download CSV</a>;
}
