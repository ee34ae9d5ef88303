/**
 * Why there is nothing to show: no sites yet (and who can add one), a site waiting for its
 * first pageview (the snippet to install; the page checks again by itself), or a period or
 * filter with nothing in it.
 */
import { useState } from 'preact/hooks';
import { trackerSnippet } from '../../../collect/snippet.js';
import type { SignedInAs, SiteInfo } from '../api.js';

/** How often a site waiting for its first pageview asks again. */
export const WAITING_POLL_MS = 5_000;

/** No site yet: who can add one, and where. */
export function NoSites({ you, account }: { you: SignedInAs; account: string | undefined }) {
  return (
    <section class="panel empty-state" data-empty="no-sites">
      <h2>No sites yet</h2>
      {you === 'owner' && account ? (
        <p>Add your first site on the <a href={`${account}sites`}>Sites page</a>; it gives you the snippet to put on your pages.</p>
      ) : you === 'community key' ? (
        <>
          <p>This installation has no site yet. Add one on the server:</p>
          <pre><code>npx siteline sites add --name Blog --domain blog.example.com</code></pre>
        </>
      ) : (
        <p>{you === 'viewer' ? 'Your account' : 'The account of this key'} has no site yet. An owner of the account adds sites on its Sites page.</p>
      )}
    </section>
  );
}

/**
 * A site with no pageview in a range that runs until now: the snippet, and a status that
 * the dashboard replaces by itself once the first pageview arrives (the caller polls).
 */
export function Waiting({ site, tracker }: { site: SiteInfo; tracker: string }) {
  const code = trackerSnippet(new URL(tracker, location.origin).href, site.id);
  const [copied, setCopied] = useState<string | undefined>(undefined);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Could not copy: select the snippet and press Ctrl+C.');
    }
  };
  return (
    <section class="panel empty-state waiting" data-empty="waiting" aria-labelledby="h-waiting">
      <h2 id="h-waiting">Waiting for the first pageview</h2>
      <p>
        {site.name} has no pageviews yet. Add these two lines to the <code>&lt;head&gt;</code> of every page
        {site.domain ? <> on <strong>{site.domain}</strong></> : null}:
      </p>
      <pre><code>{code}</code></pre>
      <p class="copy-row">
        <button type="button" onClick={() => void copy()}>Copy snippet</button>
        <span role="status" class="copied">{copied ?? ''}</span>
      </p>
      <p class="pulse" role="status"><span class="dot" aria-hidden="true" /> Checking every few seconds: this page turns into the dashboard by itself when the first pageview arrives.</p>
    </section>
  );
}

/** Nothing in this period (a past range), or nothing that matches the filters. */
export function NoData({ filtered }: { filtered: boolean }) {
  if (filtered) {
    return (
      <section class="panel empty-state" data-empty="filtered">
        <h2>Nothing matches these filters</h2>
        <p>No pageview in this period matches every filter. Remove a filter or pick a longer period.</p>
      </section>
    );
  }
  return (
    <section class="panel empty-state" data-empty="no-data">
      <h2>No pageviews in this period</h2>
      <p>Pick another period to see this site's data.</p>
    </section>
  );
}
