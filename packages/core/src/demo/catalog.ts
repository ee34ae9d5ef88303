/**
 * What the demo site's traffic is made of: pages, countries, devices and
 * hourly/weekly shape. Weights are rough shares of a small SaaS marketing
 * site's traffic; they only need to look plausible in every report.
 */

/** Pages in popularity order (the generator draws them Zipf-style, rank 1 most often). */
export const PAGES: readonly string[] = (() => {
  const top = [
    '/', '/pricing', '/blog', '/features', '/docs', '/signup', '/docs/getting-started', '/about', '/login', '/download',
    '/integrations', '/changelog', '/customers', '/contact', '/docs/api', '/security', '/careers', '/privacy', '/terms', '/status',
  ];
  const posts = [
    'cookieless-analytics-explained', 'gdpr-and-web-analytics', 'why-we-left-google-analytics', 'utm-parameters-guide',
    'bounce-rate-myths', 'self-hosting-on-a-5-dollar-vps', 'sqlite-in-production', 'measuring-ai-assistant-traffic',
    'launch-week-recap', 'what-is-a-session', 'dark-social', 'core-web-vitals-and-seo', 'building-a-public-roadmap',
    'pricing-page-teardown', 'newsletter-growth-playbook', 'referrer-spam', 'time-zones-are-hard', 'daily-unique-visitors',
    'marketing-attribution-basics', 'small-data-big-decisions', 'open-source-business-models', 'privacy-first-product-design',
    'landing-page-checklist', 'how-we-count-visitors', 'server-side-tracking', 'ad-blockers-and-analytics',
    'a-b-testing-without-cookies', 'content-that-ranks', 'writing-docs-people-read', 'from-side-project-to-saas',
    'postgres-vs-sqlite', 'clickhouse-for-analytics', 'the-funnel-is-dead', 'metrics-that-matter', 'hiring-our-first-engineer',
    'remote-team-rituals', 'year-in-review', 'customer-interviews', 'seo-for-developers', 'shipping-weekly',
  ].map((slug) => `/blog/${slug}`);
  const docs = [
    'installation', 'configuration', 'tracking-script', 'custom-events', 'goals', 'utm-campaigns', 'api/authentication',
    'api/stats', 'api/timeseries', 'api/pages', 'api/referrers', 'self-hosting', 'self-hosting/docker', 'self-hosting/tls',
    'import', 'export', 'teams', 'faq', 'troubleshooting', 'proxying-the-script', 'single-page-apps', 'wordpress',
    'shopify', 'nextjs', 'react', 'vue', 'svelte', 'hugo', 'ghost', 'webflow',
  ].map((topic) => `/docs/${topic}`);
  const integrations = ['wordpress', 'shopify', 'nextjs', 'ghost', 'webflow', 'squarespace', 'wix', 'slack', 'zapier', 'looker-studio']
    .map((name) => `/integrations/${name}`);
  // Interleave so popularity falls off gradually across sections, not section by section.
  const rest: string[] = [];
  for (let i = 0; i < posts.length; i++) rest.push(...[posts[i], docs[i], integrations[i]].filter((p): p is string => !!p));
  return [...top, ...rest];
})();

/** Countries by share of sessions (ISO alpha-2; `XX` = location unknown). */
export const COUNTRIES: readonly (readonly [string, number])[] = [
  ['US', 27], ['DE', 10], ['GB', 7], ['IN', 6], ['FR', 5], ['CA', 4], ['NL', 3], ['BR', 3], ['AU', 2.5], ['ES', 2.5],
  ['IT', 2.5], ['PL', 2], ['JP', 2], ['SE', 1.5], ['CH', 1.2], ['AT', 1.2], ['MX', 1.2], ['SG', 0.8], ['KR', 0.8], ['XX', 1],
];

/** A device as a user agent and as the fields `user_agent` parses to (the test checks they agree). */
export interface DeviceProfile {
  userAgent: string;
  deviceType: 'Desktop' | 'Mobile' | 'Tablet';
  browser: string;
  os: string;
}

const device = (userAgent: string, deviceType: DeviceProfile['deviceType'], browser: string, os: string) =>
  ({ userAgent, deviceType, browser, os });

const CHROME = 'AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0';

/** Devices by share of sessions. */
export const DEVICES: readonly (readonly [DeviceProfile, number])[] = [
  [device(`Mozilla/5.0 (Windows NT 10.0; Win64; x64) ${CHROME} Safari/537.36`, 'Desktop', 'Chrome', 'Windows'), 24],
  [device(`Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) ${CHROME} Safari/537.36`, 'Desktop', 'Chrome', 'macOS'), 10],
  [device('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15', 'Desktop', 'Safari', 'macOS'), 8],
  [device(`Mozilla/5.0 (Windows NT 10.0; Win64; x64) ${CHROME} Safari/537.36 Edg/124.0.2478.80`, 'Desktop', 'Edge', 'Windows'), 6],
  [device('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0', 'Desktop', 'Firefox', 'Windows'), 4],
  [device('Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', 'Desktop', 'Firefox', 'Linux'), 2],
  [device(`Mozilla/5.0 (X11; Linux x86_64) ${CHROME} Safari/537.36`, 'Desktop', 'Chrome', 'Linux'), 2],
  [device(`Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) ${CHROME} Safari/537.36`, 'Desktop', 'Chrome', 'Chrome OS'), 1],
  [device('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', 'Mobile', 'Safari', 'iOS'), 17],
  [device('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1', 'Mobile', 'Chrome', 'iOS'), 2],
  [device(`Mozilla/5.0 (Linux; Android 10; K) ${CHROME} Mobile Safari/537.36`, 'Mobile', 'Chrome', 'Android'), 15],
  [device('Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36', 'Mobile', 'Samsung Internet', 'Android'), 3],
  [device('Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', 'Tablet', 'Safari', 'iOS'), 3],
  [device(`Mozilla/5.0 (Linux; Android 13; SM-X710) ${CHROME} Safari/537.36`, 'Tablet', 'Chrome', 'Android'), 1],
];

/** Pageviews per session (before long pauses split some sessions in two): mean about 2.4. */
export const SESSION_LENGTHS: readonly (readonly [number, number])[] = [
  [1, 47], [2, 18], [3, 12], [4, 8], [5, 6], [6, 4], [7, 3], [8, 2],
];

/** Sessions by local hour of day, 0-23: quiet nights, a working-day plateau, an evening bump. */
export const HOUR_WEIGHTS: readonly number[] = [
  0.25, 0.15, 0.1, 0.08, 0.08, 0.12, 0.3, 0.55, 0.85, 1.05, 1.15, 1.2,
  1.15, 1.2, 1.2, 1.15, 1.05, 0.95, 0.9, 0.95, 0.95, 0.85, 0.65, 0.4,
];

/** Sessions by local weekday (`Sun` .. `Sat`), mean 1: busier Tuesday, quiet weekend. */
export const WEEKDAY_WEIGHTS: Readonly<Record<string, number>> = {
  Sun: 0.75, Mon: 1.1, Tue: 1.15, Wed: 1.1, Thu: 1.05, Fri: 0.95, Sat: 0.7,
};

/**
 * Sessions by local month (January .. December), mean 1: a year's shape for the year-long
 * data of the bench (`DemoOptions.seasonal`): busy winter and autumn, a summer trough, a
 * quieter December. The generator interpolates between mid-months, so days do not step.
 */
export const MONTH_WEIGHTS: readonly number[] = [1.12, 1.1, 1.06, 1.0, 0.96, 0.9, 0.82, 0.8, 0.98, 1.08, 1.12, 1.06];

/** Custom events a pageview may trigger, by page: `[name, probability]`. */
export function eventsFor(path: string): readonly (readonly [string, number])[] {
  if (path === '/signup') return [['signup', 0.3]];
  if (path === '/download') return [['download', 0.4]];
  if (path === '/pricing') return [['cta_click', 0.15], ['outbound', 0.01]];
  if (path.startsWith('/blog/')) return [['outbound', 0.04], ['newsletter_subscribe', 0.02]];
  if (path.startsWith('/docs')) return [['outbound', 0.03], ['download', 0.02]];
  return [['outbound', 0.01]];
}

type PropValue = string | number | boolean;
type PropChoices = readonly (readonly [PropValue, number])[];

/**
 * Properties of each custom event (properties-goals.md): a few keys per event, values
 * skewed the way real ones are (a free plan far more often than an enterprise one), and
 * now and then a key left out. `[key, share of events carrying it, values by weight]`.
 */
export const EVENT_PROPS: Readonly<Record<string, readonly (readonly [string, number, PropChoices])[]>> = {
  signup: [
    ['plan', 1, [['free', 62], ['pro', 27], ['team', 9], ['enterprise', 2]]],
    ['billing', 0.4, [['monthly', 70], ['yearly', 30]]],
    ['seats', 0.35, [[1, 55], [3, 20], [5, 15], [10, 8], [25, 2]]],
  ],
  download: [
    ['file', 1, [['siteline-macos.dmg', 46], ['siteline-windows.exe', 33], ['siteline-linux.tar.gz', 15], ['siteline-docs.pdf', 6]]],
    ['version', 0.9, [['2.4.1', 70], ['2.4.0', 20], ['2.3.9', 10]]],
  ],
  cta_click: [
    ['button', 1, [['Start free trial', 68], ['Talk to sales', 18], ['See a demo', 14]]],
    ['position', 0.8, [['hero', 60], ['pricing table', 30], ['footer', 10]]],
  ],
  outbound: [
    ['url', 0.95, [['https://github.com/siteline', 44], ['https://news.ycombinator.com', 18], ['https://x.com/siteline', 14], ['https://www.linkedin.com', 9], ['https://docs.google.com', 6], ['https://en.wikipedia.org', 5], ['https://stackoverflow.com', 4]]],
  ],
  newsletter_subscribe: [
    ['list', 1, [['weekly', 80], ['product updates', 20]]],
    ['first_time', 0.7, [[true, 85], [false, 15]]],
  ],
};

/**
 * Pages visitors walk on to from a page (`*` at the end: any page under it), and how often, on
 * top of where the draw takes them: `[from, to, share]`. They make the demo funnels' paths.
 */
export const WALKS: readonly (readonly [string, string, number])[] = [
  ['/pricing', '/signup', 0.3],
  ['/docs*', '/download', 0.25],
];

/** Funnels of the demo site, walked by its traffic (`WALKS`, and the events of `eventsFor`). */
export const DEMO_FUNNELS = [
  { name: 'Pricing to signup', steps: [{ page: '/pricing' }, { page: '/signup' }, { event: 'signup' }] },
  { name: 'Docs to download', steps: [{ page: '/docs*' }, { event: 'download' }] },
] as const;

/** Goals of the demo site: the conversions a small SaaS watches. */
export const DEMO_GOALS = [
  { type: 'event', value: 'signup' },
  { type: 'event', value: 'download' },
  { type: 'page', value: '/pricing' },
  { type: 'page', value: '/docs/*' },
] as const;
