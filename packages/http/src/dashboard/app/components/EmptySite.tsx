/** Why there is nothing to show: no sites yet, or no pageviews (with the snippet to install). */
import type { SiteInfo } from '../api.js';

export function NoSites() {
  return (
    <section class="panel empty-state">
      <h2>No sites yet</h2>
      <p>This key can read no site. Add one on the server:</p>
      <pre><code>npx siteline sites add --name Blog --domain blog.example.com</code></pre>
      <p>In the Cloud edition, a key reads only the sites of its own account.</p>
    </section>
  );
}

/** The embed snippet of the collector's README, for this server and site. */
export function snippet(site: SiteInfo, tracker: string): string {
  const src = new URL(tracker, location.origin).href;
  return `<script>window.tracker=window.tracker||function(){(window.tracker.q=window.tracker.q||[]).push(arguments)}</script>\n<script defer src="${src}" data-site="${site.id}"></script>`;
}

/** No pageviews: with the tracker snippet when `tracker` is given (not on a shared link's page: its viewer installs nothing). */
export function NoData({ site, tracker, filtered }: { site: SiteInfo; tracker: string | undefined; filtered: boolean }) {
  if (filtered) {
    return (
      <section class="panel empty-state" data-empty="filtered">
        <h2>Nothing matches these filters</h2>
        <p>No pageview in this period matches every filter. Remove a filter or pick a longer period.</p>
      </section>
    );
  }
  if (tracker === undefined) {
    return (
      <section class="panel empty-state" data-empty="no-data">
        <h2>No data for this period</h2>
        <p>{site.name} has no pageviews in this period. Pick another period.</p>
      </section>
    );
  }
  return (
    <section class="panel empty-state" data-empty="no-data">
      <h2>No data yet for this period</h2>
      <p>
        {site.name} has no pageviews in this period. If the tracker is not installed yet, add these two lines to the <code>&lt;head&gt;</code> of every page
        {site.domain ? <> on <strong>{site.domain}</strong></> : null}; pageviews show up here within seconds.
      </p>
      <pre><code>{snippet(site, tracker)}</code></pre>
    </section>
  );
}
