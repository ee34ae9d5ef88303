/** Help texts, one per command; `siteline --help` shows the first. */
export const HELP = {
  siteline: `Usage: siteline <command> [options]

Commands:
  start                 First run made easy: create .env with a key, a development
                        certificate and a demo site if missing, then serve
  serve                 Serve the API with the configuration in .env / the environment
  sites add --name <n>  Add a site
  sites list            List sites
  goals add|list|delete --site <id>
                        A site's goals (--event <name> or --page <pattern>)
  funnels add|list|delete --site <id>
                        A site's saved funnels (--name <name>, --step page:<pattern>
                        or --step event:<name>, 2 to 8 times, in order)
  import <file>         Import NDJSON events (- reads standard input)
  import --from plausible|umami|ga4 <file> --site <id>
                        Import another product's export; import list|delete --site <id>
  export --site <id> [--from <day> --to <day> | --period 7d]
                        Write a site's events of the days as NDJSON (import format)
  demo                  Add the demo site with 90 days of generated traffic
  accounts add|list     Cloud accounts (add needs EDITION=cloud)
  keys create|list|revoke --account <id>
                        A Cloud account's API keys
  users add|list|link   Dashboard users (owners and viewers)
  share add|list|revoke --site <id>
                        Shared links: a site's read-only dashboard for anyone
                        with the address (optional password, embedding)
  reports send|subscribe|unsubscribe|list --site <id>
                        Weekly and monthly email reports of a site

Run "siteline <command> --help" for a command's options. Settings are read from
.env in the current directory; real environment variables override it.
Exit codes: 0 ok, 1 failure, 2 usage error.`,

  start: `Usage: siteline start

Like "serve", but first creates what a fresh checkout lacks:
  - a random SERVICE_API_KEY (shown once), if no key is configured
    (Community edition)
  - a self-signed certificate for localhost in .siteline/ (needs openssl),
    if TLS_CERT_FILE/TLS_KEY_FILE are not set and TRUST_PROXY is not true
  - the demo site ST-demo with 90 days of traffic, if the database has no sites;
    with EDITION=cloud also an account "Demo" owning it and a key (shown once)
Once the server listens it writes into .env what it used and .env lacks: the
key, PORT, PUBLIC_URL (https://localhost:<PORT>) and the certificate files, so
"siteline serve" and every other command in this directory agree with it. Then
it prints a curl command to try the API. Works on every DATABASE_URL.`,

  serve: `Usage: siteline serve

Serves the read API (/api/v1), /collect and /tracker.js over HTTPS with the
configuration from .env and the environment: SERVICE_API_KEY, DATABASE_URL
(a SQLite file, default ./siteline.db, or clickhouse://user:password@host:8123/db
with CLICKHOUSE_CLUSTER and CLICKHOUSE_NODES for a cluster), HOST, PORT,
TLS_CERT_FILE, TLS_KEY_FILE, HSTS_MAX_AGE_SECONDS, EDITION, TRUST_PROXY, RATE_LIMIT_PER_MINUTE,
COLLECT_BATCH_EVENTS, COLLECT_BATCH_MS, SQLITE_SYNCHRONOUS, COLLECT_SPOOL_DIR and
COLLECT_SPOOL_MB (what a 202 promises: docs/behaviour.md), and the limits MAX_CONNECTIONS,
MAX_CONNECTIONS_PER_IP, TLS_HANDSHAKE_TIMEOUT_MS, HEADERS_TIMEOUT_MS,
REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, BEACONS_PER_MINUTE_PER_IP,
AUTH_FAILURES_PER_MINUTE_PER_IP, OPEN_SESSIONS_MB, and COLUMN_CACHE_MB (the
memory of a SQLite store's cache of filtered reads; see the README). Request logs
are JSON lines on stdout. SIGTERM or SIGINT stops it gracefully (a beacon is
answered 202 only once it is stored, or in the spool on ClickHouse).`,

  sites: `Usage:
  siteline sites add --name <name> [--id ST-...] [--timezone <IANA zone>] [--domain <host>] [--account <id>]
  siteline sites list

"add" prints the new site's id (generated unless --id is given; time zone
default UTC; --account makes it a Cloud account's site). "list" prints every
site as a table.`,

  goals: `Usage:
  siteline goals add    --site <id> --event <name>
  siteline goals add    --site <id> --page <pattern>
  siteline goals list   --site <id>
  siteline goals delete --site <id> --goal <display name>

A goal is a custom event name (shown as that name) or a page path pattern (shown
as "Visit <pattern>"; * matches any run of characters, / included, and the whole
path must match: /blog/* matches /blog/ and /blog/a/b, not /blog). A site has at
most 100 goals, with distinct display names. GET /api/v1/goals reports each
goal's visitors, conversions and conversion rate; API keys never change goals.`,

  funnels: `Usage:
  siteline funnels add    --site <id> --name <name> --step page:<pattern> --step event:<name> ...
  siteline funnels list   --site <id>
  siteline funnels delete --site <id> --name <name>

A funnel is 2 to 8 steps in order, each a page path pattern (page:/pricing; * matches
any run of characters, / included, and the whole path must match) or a custom event name
(event:signup); the same step may come twice. A session reaches a step when it has events
meeting the steps before it and that one in the order they were recorded, others between
them. Names are 1 to 120 characters, unique per site; a site has at most 20 funnels.
GET /api/v1/funnels?funnel=<name> reports each step's visitors, drop-off and conversion;
API keys never change funnels. Example:
  siteline funnels add --site ST-demo --name "Pricing to signup" \
    --step page:/pricing --step page:/signup --step event:signup`,

  accounts: `Usage:
  siteline accounts add --name <name> [--owner-email <address>]
  siteline accounts list

Cloud edition (EDITION=cloud; "add" refuses to run without it): accounts own
sites (siteline sites add --account <id>) and API keys (siteline keys ...). A key reads every site of its account and no other.
With --owner-email the account gets its first owner and the command prints a
one-time link (24 hours, single use) where the owner sets a password; the
owner then signs in to the dashboard to create keys, sites, goals and users.
Links point at PUBLIC_URL (default https://localhost:<PORT>). A name or email
that is refused leaves nothing behind: no account is ever made without its
owner. One email may be the owner (or a user) of several accounts.`,

  users: `Usage:
  siteline users add  --email <address> [--role owner|viewer] [--account <id>]
  siteline users list [--account <id>]
  siteline users link --email <address> [--account <id>]

People who sign in to the dashboard with an email and a password. Community
edition: the installation's users (no --account); Cloud: an account's, and
--account is required (an email is unique within an account; one person may
have users in several accounts, and signing in then asks which). An owner
manages keys (Cloud), sites, goals and users in the dashboard; a viewer sees
the dashboard only. "add" and "link" print a one-time link (24 hours, single
use) to set the password, pointing at PUBLIC_URL (default
https://localhost:<PORT>). The default role is viewer.`,

  share: `Usage:
  siteline share add    --site <id> --name <name> [--password] [--embed <origin>]... [--segment <filters>]
  siteline share list   --site <id>
  siteline share revoke --site <id> --link <link id>

"add" prints the link's address (PUBLIC_URL/share/<token>/) on standard output,
once: only a hash of its token is stored. Anyone with it reads the site's
dashboard (every panel, filters, periods, CSV), nothing else. --password reads
the password from the first line of standard input (at least 10 characters,
not a common one), e.g. printf '%s\n' "$PW" | siteline share add ...: the
viewer enters it once, wrong guesses are throttled like sign-ins. --embed
allows a page of that origin (https://host, http://host:port or
https://*.host) to show the link in an <iframe> (add ?embed=true for no header,
&theme=light|dark|system); repeat it for more; not with a password. --segment
takes the API's filters JSON, e.g. '[["is","country",["DE"]]]': conditions the
viewer cannot remove. "revoke" ends the link and every page and session opened
with it at their next request, on every server process.`,

  reports: `Usage:
  siteline reports subscribe   --site <id> --email <address> [--period week|month]
  siteline reports unsubscribe --site <id> --email <address> --period week|month
  siteline reports list        --site <id>
  siteline reports send        --site <id> --period week|month [--to <address>]

Email reports: visitors, pageviews, bounce rate and visit duration with their
change against the period before, the top 5 pages, sources and goals, and a link
to the dashboard. A running server (with SMTP_URL) mails the weekly report on
Mondays and the monthly one on the 1st, from 06:00 in the site's time zone, once
per address however many server processes share the database; "subscribe"
without --period subscribes to both. "send" mails the latest complete week or
month now, to --to or to every subscribed address, whatever the scheduler did;
it needs SMTP_URL (and MAIL_FROM, PUBLIC_URL for the links).`,

  keys: `Usage (Cloud edition; "create" needs EDITION=cloud):
  siteline keys create --account <id> --name <descriptive name>
  siteline keys list   --account <id>
  siteline keys revoke --account <id> --key <key id>

"create" prints the new key (st_ + 64 hex) on standard output, once: only its
hash is stored. "list" shows each key as its first and last four characters
with name, creation, last use and revocation. "revoke" takes effect at once,
also for requests in flight and for every server process using the database.`,

  import: `Usage: siteline import <file>
       siteline import -        (read standard input)

Imports events in the NDJSON import format (one JSON object a line) into the
database of DATABASE_URL. All or nothing: if any line is invalid, nothing is
stored and every bad line number is printed with its reason.

       siteline import --from plausible <export.zip> --site <id>
       siteline import --from umami <website_event.csv | export.zip> --site <id>
       siteline import --from ga4 <events_YYYYMMDD.json[.gz] | export.zip> --site <id>

Imports another product's export into an existing site, all or nothing, with the
file and line of every bad row. Plausible's CSV export becomes imported daily totals,
counted on the days the site has no events of its own; Umami's website_event rows
and GA4's BigQuery export become events. The same export is refused a second time.
docs/import-format.md says what is kept and what is lost.

       siteline import list --site <id>
       siteline import delete --site <id> --import <id>

Lists a site's imports of daily totals, or deletes one and exactly its rows.`,

  export: `Usage: siteline export --site <id> [--from <YYYY-MM-DD> --to <YYYY-MM-DD>]
       siteline export --site <id> --period 30d|7d|1d

Writes the site's events of the days (inclusive, the site's time zone; default the
last 30 days, as the API) to standard output as NDJSON in the import format (custom
events with their props), in time order, read from the database of DATABASE_URL directly. "siteline import" of the
output into an empty database with the same site (and the same goals: add them with
"siteline goals add") gives the same reports.`,

  demo: `Usage: siteline demo [--id ST-demo] [--days 90] [--pageviews-per-day 400] [--seed 1]

Adds a demo site (time zone Europe/Berlin) with generated, realistic traffic
ending now, into the database of DATABASE_URL.`,
} as const;
