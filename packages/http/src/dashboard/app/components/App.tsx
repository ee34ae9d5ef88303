/** The dashboard: the view from the URL, every panel's request derived from it. */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type Capabilities, getData, type SitesResponse } from '../api.js';
import { now, syncClock, zonedDay } from '../dates.js';
import { EMBEDDED, meta, SHARED_SITE, withLook } from '../page.js';
import { readView, type View, withoutFilter, writeView } from '../state.js';
import { Chips } from './Chips.js';
import { Controls } from './Controls.js';
import { NoSites } from './EmptySite.js';
import { Live } from './Live.js';
import { Reports } from './Reports.js';

/**
 * What the storage is assumed to answer until the sites list says: filters and hours (the
 * URL's view is asked at once, a refusal shows in its panel), but no goals, properties or funnels
 * (their panels would ask unasked-for reports a storage may refuse).
 */
const UNTIL_SITES: Capabilities = { filters: true, hours: true, properties: false, goals: false, funnels: false };

/** The view the page was opened with, when its URL names a site (a shared link's page: always its site): its reports start at once, beside the sites list. */
function viewFromUrl(): View | undefined {
  if (SHARED_SITE) return { ...readView(location.search, SHARED_SITE), site: SHARED_SITE };
  return new URLSearchParams(location.search).get('site_id') ? readView(location.search, '') : undefined;
}

export function App() {
  const [sites, setSites] = useState<SitesResponse | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [view, setView] = useState<View | undefined>(viewFromUrl);

  useEffect(() => {
    if (view) history.replaceState(null, '', withLook(writeView(view)));
    getData<SitesResponse>('sites').then(
      (body) => {
        syncClock(body.now);
        setSites(body);
        setView((current) => {
          if (current) return current;
          const first = readView(location.search, body.sites[0]?.id ?? '');
          history.replaceState(null, '', withLook(writeView(first)));
          return first;
        });
      },
      (error: Error) => setFailure(error.message),
    );
    const onPop = () => setView((current) => (current ? { ...readView(location.search, current.site), ...(SHARED_SITE ? { site: SHARED_SITE } : {}) } : current));
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  const navigate = (next: View) => {
    history.pushState(null, '', withLook(writeView(next)));
    setView(next);
  };

  const title = SHARED_SITE ? sites?.sites[0]?.name : undefined;
  if (failure) return <Shell title={title}><p class="error" role="alert">{failure}</p></Shell>;
  if (sites?.sites.length === 0) return <Shell title={title}><NoSites you={sites.you} account={meta('siteline-account')} /></Shell>;
  if (!view || !view.site) return <Shell title={title}><p class="loading">Loading…</p></Shell>;
  const site = sites?.sites.find((s) => s.id === view.site);
  const can = sites?.can ?? UNTIL_SITES;
  // Until the list arrives (or when the URL names a site the key cannot read), the picker holds the URL's site.
  const choices = site && sites ? sites.sites : [{ id: view.site, name: view.site, domain: null, timezone: '' }, ...(sites?.sites ?? [])];
  // The site's today by the server's clock (dates.ts), once the list has said the site's time zone.
  const today = site ? zonedDay(now(), site.timezone) : undefined;
  // A shared link's segment: conditions every answer carries, shown as chips the viewer cannot remove.
  const segment = sites?.segment ?? [];
  return (
    <Shell title={title}>
      <Controls view={view} sites={choices} picker={!SHARED_SITE} today={today} hours={can.hours} onChange={navigate} />
      {segment.length === 0 && <Live site={view.site} />}
      <Chips locked={segment} filters={view.filters} onRemove={(i) => navigate(withoutFilter(view, i))} onClear={() => navigate({ ...view, filters: [] })} />
      {sites && !sites.can.filters && <p class="note">This server's storage does not answer filtered queries yet, so rows cannot be clicked to filter.</p>}
      {/* A shared link's viewer installs nothing: no tracker snippet, no waiting for a first pageview. */}
      <Reports view={view} site={site} today={today} can={can} tracker={SHARED_SITE ? undefined : (sites?.tracker ?? '/tracker.js')} account={SHARED_SITE ? undefined : meta('siteline-account')} onChange={navigate} />
    </Shell>
  );
}

/** The page's header: the sign-out form and, for an owner, the account pages; a shared link's page shows its site's name, an embedded one nothing. */
function Shell({ title, children }: { title?: string | undefined; children: ComponentChildren }) {
  const account = meta('siteline-account');
  if (EMBEDDED) return <main class="content">{children}</main>;
  if (SHARED_SITE) {
    return (
      <>
        <header class="top"><span class="brand">{title ?? ''}</span><span class="shared-note">Shared dashboard · Siteline</span></header>
        <main class="content">{children}</main>
      </>
    );
  }
  return (
    <>
      <header class="top">
        <span class="brand">Siteline</span>
        <span class="top-actions">
          {account && <a href={account}>Account</a>}
          <form method="post" action="dashboard/sign-out"><input type="hidden" name="csrf" value={meta('csrf-token') ?? ''} /><button type="submit">Sign out</button></form>
        </span>
      </header>
      <main class="content">{children}</main>
    </>
  );
}
