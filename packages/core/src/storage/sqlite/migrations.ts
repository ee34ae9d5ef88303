/**
 * Versioned schema of the SQLite store. Each entry upgrades from version
 * `index` to `index + 1` (tracked in `PRAGMA user_version`); never edit a
 * released entry, append a new one.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE sites (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    timezone    TEXT NOT NULL,
    domain      TEXT,
    account_id  TEXT,
    created_at  TEXT NOT NULL
  ) STRICT;
  CREATE INDEX sites_account ON sites (account_id);

  -- One row per pageview or custom event. type: 0 pageview, 1 custom event.
  -- gap_ms: time to the next event of the same session by (ts, seq), NULL for the last.
  CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    site_id     TEXT NOT NULL,
    ts          INTEGER NOT NULL,
    day         TEXT NOT NULL,
    type        INTEGER NOT NULL,
    name        TEXT NOT NULL,
    path        TEXT NOT NULL,
    visitor_id  TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    gap_ms      INTEGER
  ) STRICT;
  CREATE INDEX events_site_ts ON events (site_id, ts);
  CREATE INDEX events_session ON events (site_id, session_id, ts, seq);

  -- One row per session, maintained on write; attributes are the first event's.
  CREATE TABLE sessions (
    site_id          TEXT NOT NULL,
    session_id       TEXT NOT NULL,
    visitor_id       TEXT NOT NULL,
    day              TEXT NOT NULL,
    start_ts         INTEGER NOT NULL,
    end_ts           INTEGER NOT NULL,
    end_seq          INTEGER NOT NULL,
    last_event_id    INTEGER NOT NULL,
    pageviews        INTEGER NOT NULL,
    custom_events    INTEGER NOT NULL,
    entry_path       TEXT NOT NULL,
    referrer_source  TEXT NOT NULL,
    channel          TEXT NOT NULL,
    utm_source       TEXT NOT NULL,
    utm_medium       TEXT NOT NULL,
    utm_campaign     TEXT NOT NULL,
    country_code     TEXT NOT NULL,
    device_type      TEXT NOT NULL,
    browser          TEXT NOT NULL,
    os               TEXT NOT NULL,
    PRIMARY KEY (site_id, session_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX sessions_site_day ON sessions (site_id, day);

  CREATE TABLE imports (
    hash         TEXT PRIMARY KEY,
    events       INTEGER NOT NULL,
    imported_at  TEXT NOT NULL
  ) STRICT;
  `,
  `
  -- Cloud edition: accounts own sites; API keys are stored only as a hash.
  CREATE TABLE accounts (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    created_at  TEXT NOT NULL
  ) STRICT;

  CREATE TABLE api_keys (
    id            TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts (id),
    name          TEXT NOT NULL,
    hash          BLOB NOT NULL UNIQUE,
    prefix        TEXT NOT NULL,
    last4         TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    last_used_at  TEXT,
    revoked_at    TEXT
  ) STRICT;
  CREATE INDEX api_keys_account ON api_keys (account_id);
  `,
  `
  -- Raw rows clustered the way they are read: events by (site, time), sessions by
  -- (site, day, visitor), so reading a day (a dirty day, a rebuild, /live) is one
  -- sequential range instead of an index walk with a lookup per row, and a visitor's
  -- other sessions of a day are one short range. Event ids come from event_ids
  -- (MAX(id) would be a full scan without a rowid).
  CREATE TABLE events_by_time (
    site_id     TEXT NOT NULL,
    ts          INTEGER NOT NULL,
    id          INTEGER NOT NULL,
    day         TEXT NOT NULL,
    type        INTEGER NOT NULL,
    name        TEXT NOT NULL,
    path        TEXT NOT NULL,
    visitor_id  TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    gap_ms      INTEGER,
    PRIMARY KEY (site_id, ts, id)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO events_by_time SELECT site_id, ts, id, day, type, name, path, visitor_id, session_id, seq, gap_ms FROM events;
  CREATE TABLE event_ids (next INTEGER NOT NULL) STRICT;
  INSERT INTO event_ids SELECT COALESCE(MAX(id), 0) + 1 FROM events;
  DROP TABLE events;
  ALTER TABLE events_by_time RENAME TO events;

  CREATE TABLE sessions_by_day (
    site_id          TEXT NOT NULL,
    session_id       TEXT NOT NULL,
    visitor_id       TEXT NOT NULL,
    day              TEXT NOT NULL,
    start_ts         INTEGER NOT NULL,
    end_ts           INTEGER NOT NULL,
    end_seq          INTEGER NOT NULL,
    last_event_id    INTEGER NOT NULL,
    pageviews        INTEGER NOT NULL,
    custom_events    INTEGER NOT NULL,
    entry_path       TEXT NOT NULL,
    referrer_source  TEXT NOT NULL,
    channel          TEXT NOT NULL,
    utm_source       TEXT NOT NULL,
    utm_medium       TEXT NOT NULL,
    utm_campaign     TEXT NOT NULL,
    country_code     TEXT NOT NULL,
    device_type      TEXT NOT NULL,
    browser          TEXT NOT NULL,
    os               TEXT NOT NULL,
    PRIMARY KEY (site_id, day, visitor_id, session_id)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO sessions_by_day SELECT * FROM sessions;
  DROP TABLE sessions;
  ALTER TABLE sessions_by_day RENAME TO sessions;
  CREATE UNIQUE INDEX sessions_id ON sessions (site_id, session_id);

  -- Per-day rollups, so a report sums about one row per day and value instead of
  -- scanning raw events. Visitors are distinct per day, so summing days gives the
  -- metric of decisions.md 3. A (site, day) is in one of three states
  -- (sqlite-rollups.ts): clean (rollup rows complete), dirty (a row in dirty_days,
  -- no rollup rows: read raw until rebuilt), or live (a row in live_days: rollup
  -- rows complete and kept current by each small write, with live_page_visitors
  -- telling whether a pageview's visitor is new for its page that day).
  CREATE TABLE rollup_days (
    site_id      TEXT NOT NULL,
    day          TEXT NOT NULL,
    visitors     INTEGER NOT NULL,
    sessions     INTEGER NOT NULL,
    bounces      INTEGER NOT NULL,
    duration_ms  INTEGER NOT NULL,
    pageviews    INTEGER NOT NULL,
    PRIMARY KEY (site_id, day)
  ) STRICT, WITHOUT ROWID;

  -- Sessions by one attribute: dimension is a SessionDimension or 'entryPath';
  -- for 'utm' the value is source, medium and campaign joined by U+0000.
  CREATE TABLE rollup_sessions (
    site_id    TEXT NOT NULL,
    dimension  TEXT NOT NULL,
    day        TEXT NOT NULL,
    value      TEXT NOT NULL,
    visitors   INTEGER NOT NULL,
    sessions   INTEGER NOT NULL,
    bounces    INTEGER NOT NULL,
    PRIMARY KEY (site_id, dimension, day, value)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE rollup_pages (
    site_id          TEXT NOT NULL,
    day              TEXT NOT NULL,
    path             TEXT NOT NULL,
    pageviews        INTEGER NOT NULL,
    visitors         INTEGER NOT NULL,
    timed_views      INTEGER NOT NULL,
    time_on_page_ms  INTEGER NOT NULL,
    PRIMARY KEY (site_id, day, path)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE rollup_events (
    site_id  TEXT NOT NULL,
    day      TEXT NOT NULL,
    name     TEXT NOT NULL,
    count    INTEGER NOT NULL,
    PRIMARY KEY (site_id, day, name)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE dirty_days (
    site_id  TEXT NOT NULL,
    day      TEXT NOT NULL,
    PRIMARY KEY (site_id, day)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO dirty_days SELECT DISTINCT site_id, day FROM events UNION SELECT site_id, day FROM sessions;

  CREATE TABLE live_days (
    site_id  TEXT NOT NULL,
    day      TEXT NOT NULL,
    PRIMARY KEY (site_id, day)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE live_page_visitors (
    site_id     TEXT NOT NULL,
    day         TEXT NOT NULL,
    path        TEXT NOT NULL,
    visitor_id  TEXT NOT NULL,
    PRIMARY KEY (site_id, day, path, visitor_id)
  ) STRICT, WITHOUT ROWID;

  -- Bumped whenever the rollup rows of a site's clean days change (a day changes
  -- state), so a reader may keep sums over clean days.
  CREATE TABLE rollup_generations (
    site_id     TEXT PRIMARY KEY,
    generation  INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;
  `,
  `
  -- Daily salts of the collector's visitor ids, shared by every process; each
  -- is deleted 48 hours after its day began (see salts/salts.ts).
  CREATE TABLE salts (
    day         TEXT PRIMARY KEY,
    salt        TEXT NOT NULL,
    expires_at  INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;
  `,
  `
  -- Browser and OS names get one spelling each (issue 14): the names earlier versions
  -- stored in another case or under an alias (android, brave, KAIOS, Mobile Safari) are
  -- renamed as derive/device-names.ts names them in this release. The table is written out
  -- here, not read from that file, so this entry never changes once released. Names not in
  -- it that are one lower-case word get a capital initial, as the code does for new ones.
  CREATE TEMP TABLE name_fixes (
    kind       TEXT NOT NULL,
    old_lower  TEXT NOT NULL,
    name       TEXT NOT NULL,
    PRIMARY KEY (kind, old_lower)
  );
  INSERT INTO name_fixes (kind, old_lower, name) VALUES
    ('browser', 'mobile safari', 'Safari'), ('browser', 'mobile firefox', 'Firefox'),
    ('browser', 'mobile chrome', 'Chrome'), ('browser', 'chrome mobile', 'Chrome'),
    ('browser', 'chrome webview', 'Android WebView'),
    ('browser', 'chrome headless', 'Headless Chrome'),
    ('browser', 'headlesschrome', 'Headless Chrome'), ('browser', 'microsoft edge', 'Edge'),
    ('browser', 'ie', 'Internet Explorer'), ('browser', 'iemobile', 'Internet Explorer'),
    ('browser', 'samsung browser', 'Samsung Internet'),
    ('browser', 'samsungbrowser', 'Samsung Internet'), ('browser', 'opera mobi', 'Opera'),
    ('browser', 'opera tablet', 'Opera'), ('browser', 'opera touch', 'Opera'),
    ('browser', 'opera gx', 'Opera'), ('browser', 'ucbrowser', 'UC Browser'),
    ('browser', 'yandex', 'Yandex Browser'), ('browser', 'gsa', 'Google App'),
    ('browser', 'palemoon', 'Pale Moon'), ('browser', 'qqbrowser', 'QQ Browser'),
    ('browser', 'nokiabrowser', 'Nokia Browser'), ('browser', 'ovibrowser', 'Ovi Browser'),
    ('browser', 'chrome', 'Chrome'), ('browser', 'safari', 'Safari'),
    ('browser', 'safari (in-app)', 'Safari (in-app)'), ('browser', 'firefox', 'Firefox'),
    ('browser', 'edge', 'Edge'), ('browser', 'opera', 'Opera'),
    ('browser', 'opera mini', 'Opera Mini'), ('browser', 'samsung internet', 'Samsung Internet'),
    ('browser', 'uc browser', 'UC Browser'), ('browser', 'yandex browser', 'Yandex Browser'),
    ('browser', 'internet explorer', 'Internet Explorer'),
    ('browser', 'android browser', 'Android Browser'),
    ('browser', 'android webview', 'Android WebView'),
    ('browser', 'headless chrome', 'Headless Chrome'), ('browser', 'brave', 'Brave'),
    ('browser', 'vivaldi', 'Vivaldi'), ('browser', 'chromium', 'Chromium'),
    ('browser', 'silk', 'Silk'), ('browser', 'duckduckgo', 'DuckDuckGo'),
    ('browser', 'facebook', 'Facebook'), ('browser', 'instagram', 'Instagram'),
    ('browser', 'kakaotalk', 'KakaoTalk'), ('browser', 'wechat', 'WeChat'),
    ('browser', 'weibo', 'Weibo'), ('browser', 'rekonq', 'Rekonq'), ('browser', 'whale', 'Whale'),
    ('browser', 'google app', 'Google App'), ('browser', 'miui browser', 'MIUI Browser'),
    ('browser', 'huawei browser', 'Huawei Browser'), ('browser', 'coc coc', 'Coc Coc'),
    ('browser', 'qq browser', 'QQ Browser'), ('browser', 'unknown', 'Unknown'),
    ('os', 'mac os', 'macOS'), ('os', 'mac os x', 'macOS'), ('os', 'os x', 'macOS'),
    ('os', 'chromium os', 'Chrome OS'), ('os', 'android-x86', 'Android'), ('os', 'ipados', 'iOS'),
    ('os', 'windows phone os', 'Windows Phone'), ('os', 'rim tablet os', 'BlackBerry Tablet OS'),
    ('os', 'series40', 'Nokia Series 40'), ('os', 'ubuntu', 'Linux'), ('os', 'kubuntu', 'Linux'),
    ('os', 'xubuntu', 'Linux'), ('os', 'lubuntu', 'Linux'), ('os', 'debian', 'Linux'),
    ('os', 'suse', 'Linux'), ('os', 'opensuse', 'Linux'), ('os', 'gentoo', 'Linux'),
    ('os', 'arch', 'Linux'), ('os', 'slackware', 'Linux'), ('os', 'fedora', 'Linux'),
    ('os', 'mandriva', 'Linux'), ('os', 'centos', 'Linux'), ('os', 'pclinuxos', 'Linux'),
    ('os', 'red hat', 'Linux'), ('os', 'redhat', 'Linux'), ('os', 'zenwalk', 'Linux'),
    ('os', 'linpus', 'Linux'), ('os', 'raspbian', 'Linux'), ('os', 'deepin', 'Linux'),
    ('os', 'manjaro', 'Linux'), ('os', 'elementary os', 'Linux'), ('os', 'sabayon', 'Linux'),
    ('os', 'linspire', 'Linux'), ('os', 'mint', 'Linux'), ('os', 'mageia', 'Linux'),
    ('os', 'vectorlinux', 'Linux'), ('os', 'windows', 'Windows'), ('os', 'macos', 'macOS'),
    ('os', 'ios', 'iOS'), ('os', 'android', 'Android'), ('os', 'linux', 'Linux'),
    ('os', 'chrome os', 'Chrome OS'), ('os', 'windows phone', 'Windows Phone'),
    ('os', 'windows mobile', 'Windows Mobile'), ('os', 'kaios', 'KaiOS'),
    ('os', 'freebsd', 'FreeBSD'), ('os', 'openbsd', 'OpenBSD'), ('os', 'netbsd', 'NetBSD'),
    ('os', 'harmonyos', 'HarmonyOS'), ('os', 'tizen', 'Tizen'), ('os', 'webos', 'webOS'),
    ('os', 'watchos', 'watchOS'), ('os', 'playstation', 'PlayStation'),
    ('os', 'blackberry', 'BlackBerry'), ('os', 'symbian', 'Symbian'),
    ('os', 'firefox os', 'Firefox OS'), ('os', 'fuchsia', 'Fuchsia'), ('os', 'solaris', 'Solaris'),
    ('os', 'blackberry tablet os', 'BlackBerry Tablet OS'),
    ('os', 'nokia series 40', 'Nokia Series 40'), ('os', 'unknown', 'Unknown');

  -- Only sessions whose names change; one pass over the table.
  CREATE TEMP TABLE new_names AS SELECT site_id, session_id, day, browser, os FROM (
    SELECT site_id, session_id, day, browser AS old_browser, os AS old_os,
      COALESCE((SELECT name FROM name_fixes WHERE kind = 'browser' AND old_lower = lower(sessions.browser)),
        CASE WHEN browser GLOB '[a-z]*' AND browser = lower(browser) AND instr(browser, ' ') = 0
          THEN upper(substr(browser, 1, 1)) || substr(browser, 2) ELSE browser END) AS browser,
      COALESCE((SELECT name FROM name_fixes WHERE kind = 'os' AND old_lower = lower(sessions.os)),
        CASE WHEN os GLOB '[a-z]*' AND os = lower(os) AND instr(os, ' ') = 0
          THEN upper(substr(os, 1, 1)) || substr(os, 2) ELSE os END) AS os
    FROM sessions
  ) WHERE browser <> old_browser OR os <> old_os;
  CREATE UNIQUE INDEX temp.new_names_id ON new_names (site_id, session_id);

  UPDATE sessions SET
    browser = (SELECT n.browser FROM new_names n WHERE n.site_id = sessions.site_id AND n.session_id = sessions.session_id),
    os = (SELECT n.os FROM new_names n WHERE n.site_id = sessions.site_id AND n.session_id = sessions.session_id)
  WHERE (site_id, session_id) IN (SELECT site_id, session_id FROM new_names);

  -- The days of renamed sessions become dirty exactly as a write makes them
  -- (sqlite-rollups.ts markDirty): rollup rows and live state gone, generation bumped;
  -- the next read rebuilds them from the renamed rows.
  CREATE TEMP TABLE renamed_days AS SELECT DISTINCT site_id, day FROM new_names;
  INSERT INTO dirty_days (site_id, day) SELECT site_id, day FROM renamed_days WHERE true ON CONFLICT DO NOTHING;
  DELETE FROM rollup_days WHERE (site_id, day) IN (SELECT site_id, day FROM renamed_days);
  DELETE FROM rollup_sessions WHERE (site_id, day) IN (SELECT site_id, day FROM renamed_days);
  DELETE FROM rollup_pages WHERE (site_id, day) IN (SELECT site_id, day FROM renamed_days);
  DELETE FROM rollup_events WHERE (site_id, day) IN (SELECT site_id, day FROM renamed_days);
  DELETE FROM live_page_visitors WHERE (site_id, day) IN (SELECT site_id, day FROM renamed_days);
  DELETE FROM live_days WHERE (site_id, day) IN (SELECT site_id, day FROM renamed_days);
  INSERT INTO rollup_generations (site_id, generation) SELECT DISTINCT site_id, 1 FROM renamed_days WHERE true
    ON CONFLICT DO UPDATE SET generation = generation + 1;

  DROP TABLE renamed_days;
  DROP TABLE new_names;
  DROP TABLE name_fixes;
  `,
  `
  -- A version per (site, day) of the day's raw rows (its events, its sessions), bumped
  -- in the transaction of every write that changes them, by whichever connection or
  -- process writes (sqlite-day-versions.ts). The in-memory column cache of filtered
  -- reads keeps a day's chunk while its version and those of the days it depends on
  -- hold, so a write to one day reloads that day only. No row: version 0. A later
  -- migration that changes raw rows must bump the versions of the days it changes.
  CREATE TABLE day_versions (
    site_id  TEXT NOT NULL,
    day      TEXT NOT NULL,
    version  INTEGER NOT NULL,
    PRIMARY KEY (site_id, day)
  ) STRICT, WITHOUT ROWID;
  `,
  `
  -- Custom event properties (properties-goals.md): a custom event's props as the JSON
  -- array of its [key, value] pairs (both strings, exactly as sent), NULL without any.
  -- Existing rows have none, so no day's raw rows change and no version is bumped.
  ALTER TABLE events ADD COLUMN props TEXT;

  -- Goals, site settings: an event goal (type 'event', value the event name) or a page
  -- goal (type 'page', value the path pattern); name is the display name, unique per site.
  CREATE TABLE goals (
    site_id     TEXT NOT NULL,
    name        TEXT NOT NULL,
    type        TEXT NOT NULL,
    value       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (site_id, name)
  ) STRICT, WITHOUT ROWID;
  `,
  `
  -- People (issue 25): dashboard users of a Cloud account (account_id '' in the Community
  -- edition), one-time set-password links and web sessions, all keyed by hashes of their
  -- secrets. recovery_hashes is a JSON array of SHA-256 hex strings.
  CREATE TABLE users (
    id                 TEXT PRIMARY KEY,
    account_id         TEXT NOT NULL,
    email              TEXT NOT NULL,
    role               TEXT NOT NULL,
    password_hash      TEXT NOT NULL,
    totp_secret        TEXT NOT NULL,
    recovery_hashes    TEXT NOT NULL,
    sessions_after_ms  INTEGER NOT NULL,
    created_at         TEXT NOT NULL,
    removed            INTEGER NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX users_email ON users (email) WHERE removed = 0;
  CREATE INDEX users_account ON users (account_id);

  CREATE TABLE user_links (
    token_hash  TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL,
    expires_ms  INTEGER NOT NULL,
    used_ms     INTEGER
  ) STRICT;

  CREATE TABLE web_sessions (
    id_hash       TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL,
    key_id        TEXT NOT NULL,
    account_id    TEXT NOT NULL,
    csrf          TEXT NOT NULL,
    created_ms    INTEGER NOT NULL,
    last_seen_ms  INTEGER NOT NULL,
    ended         INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX web_sessions_created ON web_sessions (created_ms);
  `,
  `
  -- Issue 25, second part: the last two-factor time step accepted per user (a code is
  -- accepted once), and sign-in attempts as the throttle counts them, under SHA-256 hashes
  -- of the email (and client); both in the backend so every server process shares them.
  CREATE TABLE totp_steps (
    user_id  TEXT PRIMARY KEY,
    step     INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE sign_ins (
    key     TEXT NOT NULL,
    at_ms   INTEGER NOT NULL,
    failed  INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX sign_ins_key ON sign_ins (key, at_ms);
  CREATE INDEX sign_ins_at ON sign_ins (at_ms);
  `,
  `
  -- Issue 26: sessions of twelve hours or more by end, so a filtered read from the raw
  -- tables finds the sessions that started days before its range and reach into it
  -- without scanning those days (sqlite-selection-raw.ts, LONG_SESSION_MS; the query must
  -- repeat this condition word for word for SQLite to use the index). Few sessions qualify.
  CREATE INDEX IF NOT EXISTS sessions_long ON sessions (site_id, end_ts) WHERE end_ts - start_ts >= 43200000;
  `,
  `
  -- Issue 35: an email is unique per account (a person may have users in several
  -- accounts); a sign-in attempt is reserved before its password is checked and settled by
  -- its id; a web session keeps the user's epoch its sign-in read (sessions_after_ms of
  -- users, raised by every password change), so a change that lands during a sign-in ends
  -- that session too. Sessions from before have epoch 0: those of users who ever changed a
  -- password end once.
  DROP INDEX users_email;
  CREATE UNIQUE INDEX users_account_email ON users (account_id, email) WHERE removed = 0;
  CREATE INDEX users_email ON users (email);
  ALTER TABLE sign_ins ADD COLUMN id TEXT NOT NULL DEFAULT '';
  CREATE INDEX sign_ins_id ON sign_ins (id);
  ALTER TABLE web_sessions ADD COLUMN user_epoch INTEGER NOT NULL DEFAULT 0;
  `,
  `
  -- Issue 39: imported daily totals (a Plausible export). imported_datasets holds one row per
  -- import (its hash refuses the same export twice while it exists; partial lists the session
  -- tables it has no pageviews for); imported_rows its rows, per site, table, local day and key
  -- (k0 to k4 in the order of imported/tables.ts), summed by reads. Deleting an import deletes
  -- its dataset row and exactly its rows (by import_id).
  CREATE TABLE imported_datasets (
    id           TEXT PRIMARY KEY,
    site_id      TEXT NOT NULL,
    source       TEXT NOT NULL,
    hash         TEXT NOT NULL,
    from_day     TEXT NOT NULL,
    to_day       TEXT NOT NULL,
    rows         INTEGER NOT NULL,
    partial      TEXT NOT NULL,
    imported_at  TEXT NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX imported_datasets_hash ON imported_datasets (site_id, hash);

  CREATE TABLE imported_rows (
    site_id         TEXT NOT NULL,
    tbl             TEXT NOT NULL,
    day             TEXT NOT NULL,
    import_id       TEXT NOT NULL,
    k0              TEXT NOT NULL,
    k1              TEXT NOT NULL,
    k2              TEXT NOT NULL,
    k3              TEXT NOT NULL,
    k4              TEXT NOT NULL,
    visitors        INTEGER NOT NULL,
    sessions        INTEGER NOT NULL,
    pageviews       INTEGER NOT NULL,
    bounces         INTEGER NOT NULL,
    duration_s      INTEGER NOT NULL,
    events          INTEGER NOT NULL,
    timed_views     INTEGER NOT NULL,
    time_on_page_s  INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX imported_rows_read ON imported_rows (site_id, tbl, day);
  CREATE INDEX imported_rows_import ON imported_rows (import_id);
  `,
  `
  -- Issue 37, sharing and email reports.
  -- shared_links: a link's token as SHA-256 only; password_hash the scrypt form or ''; the
  -- origins that may frame it and its segment (API filter conditions) as JSON arrays;
  -- revoked_ms 0 while it works. A viewer's password session is a web_sessions row whose
  -- key_id is the link's id.
  CREATE TABLE shared_links (
    id               TEXT PRIMARY KEY,
    site_id          TEXT NOT NULL,
    name             TEXT NOT NULL,
    token_hash       TEXT NOT NULL UNIQUE,
    password_hash    TEXT NOT NULL,
    frame_ancestors  TEXT NOT NULL,
    segment          TEXT NOT NULL,
    created_at       TEXT NOT NULL,
    revoked_ms       INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX shared_links_site ON shared_links (site_id);

  -- An address subscribed to a site's weekly or monthly report (kind 'week' or 'month');
  -- unsubscribing deletes the row.
  CREATE TABLE report_subscriptions (
    site_id     TEXT NOT NULL,
    kind        TEXT NOT NULL,
    email       TEXT NOT NULL,
    created_ms  INTEGER NOT NULL,
    PRIMARY KEY (site_id, kind, email)
  ) STRICT, WITHOUT ROWID;

  -- One row per attempt to send a report (period: its first day). Attempts 1, 2, ... are
  -- claimed by one insert under the partial unique index, so of any number of processes on
  -- the file exactly one sends each; attempt 0 is a send by hand, never claimed. outcome ''
  -- while sending, then 'sent' or 'failed'. unsubscribe_hash: SHA-256 of the token the
  -- mail's unsubscribe link carries.
  CREATE TABLE report_sends (
    id                INTEGER PRIMARY KEY,
    site_id           TEXT NOT NULL,
    kind              TEXT NOT NULL,
    period            TEXT NOT NULL,
    email             TEXT NOT NULL,
    attempt           INTEGER NOT NULL,
    claimed_ms        INTEGER NOT NULL,
    outcome           TEXT NOT NULL,
    unsubscribe_hash  TEXT NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX report_sends_claim ON report_sends (site_id, kind, period, email, attempt) WHERE attempt > 0;
  CREATE INDEX report_sends_period ON report_sends (period);
  CREATE INDEX report_sends_unsubscribe ON report_sends (unsubscribe_hash);
  `,
  `
  -- Issue 36: funnels (funnels.md section 4), site settings like goals: a name unique per
  -- site and the funnel's own steps, as the JSON array the API takes (each {"page": <pattern>}
  -- or {"event": <name>}, in order). IF NOT EXISTS: an older file a test rebuilds keeps it.
  CREATE TABLE IF NOT EXISTS funnels (
    site_id     TEXT NOT NULL,
    name        TEXT NOT NULL,
    steps       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (site_id, name)
  ) STRICT, WITHOUT ROWID;
  `,
  `
  -- Slices (issue 41, storage/sqlite/slices/): per day, the sums of the sessions one filter
  -- condition selects (kind and slice: an attribute and its value, sessions viewing a page,
  -- doing a custom event, converting on a pattern goal; 'all' for goals and properties), so
  -- a one-condition filter over a year is a sum of rows, one seek per day. A day's rows are
  -- valid while the versions of the raw rows they were computed from hold
  -- (slice_days.versions, a JSON array of [day, version]); goals lists the goals (type
  -- U+0000 value) computed that day. Keyed by day first: a day is written and replaced as one
  -- range.
  CREATE TABLE slice_days (
    site_id   TEXT NOT NULL,
    day       TEXT NOT NULL,
    versions  TEXT NOT NULL,
    goals     TEXT NOT NULL,
    PRIMARY KEY (site_id, day)
  ) STRICT, WITHOUT ROWID;

  -- dimension '' and value '': the slice's totals; otherwise by a breakdown dimension's value.
  CREATE TABLE slice_totals (
    site_id      TEXT NOT NULL,
    day          TEXT NOT NULL,
    kind         TEXT NOT NULL,
    slice        TEXT NOT NULL,
    dimension    TEXT NOT NULL,
    value        TEXT NOT NULL,
    visitors     INTEGER NOT NULL,
    sessions     INTEGER NOT NULL,
    bounces      INTEGER NOT NULL,
    duration_ms  INTEGER NOT NULL,
    pageviews    INTEGER NOT NULL,
    PRIMARY KEY (site_id, day, kind, slice, dimension, value)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE slice_pages (
    site_id          TEXT NOT NULL,
    day              TEXT NOT NULL,
    kind             TEXT NOT NULL,
    slice            TEXT NOT NULL,
    path             TEXT NOT NULL,
    pageviews        INTEGER NOT NULL,
    visitors         INTEGER NOT NULL,
    timed_views      INTEGER NOT NULL,
    time_on_page_ms  INTEGER NOT NULL,
    PRIMARY KEY (site_id, day, kind, slice, path)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE slice_events (
    site_id  TEXT NOT NULL,
    day      TEXT NOT NULL,
    kind     TEXT NOT NULL,
    slice    TEXT NOT NULL,
    name     TEXT NOT NULL,
    count    INTEGER NOT NULL,
    PRIMARY KEY (site_id, day, kind, slice, name)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE slice_goals (
    site_id      TEXT NOT NULL,
    day          TEXT NOT NULL,
    kind         TEXT NOT NULL,
    slice        TEXT NOT NULL,
    goal         TEXT NOT NULL,
    visitors     INTEGER NOT NULL,
    conversions  INTEGER NOT NULL,
    PRIMARY KEY (site_id, day, kind, slice, goal)
  ) STRICT, WITHOUT ROWID;

  -- level 0: events of the name carrying the key (value ''); level 1: with that value.
  CREATE TABLE slice_props (
    site_id   TEXT NOT NULL,
    day       TEXT NOT NULL,
    kind      TEXT NOT NULL,
    slice     TEXT NOT NULL,
    name      TEXT NOT NULL,
    key       TEXT NOT NULL,
    level     INTEGER NOT NULL,
    value     TEXT NOT NULL,
    count     INTEGER NOT NULL,
    visitors  INTEGER NOT NULL,
    PRIMARY KEY (site_id, day, kind, slice, name, key, level, value)
  ) STRICT, WITHOUT ROWID;
  `,
  `
  -- Funnels in slices (issue 41, second part): per day and slice, for each funnel saved for the
  -- site when the day was computed (funnel: 'funnel ' and its steps' types and values as
  -- JSON, slices/kinds.ts funnelKey), the distinct visitors of the slice's sessions starting on the day that reach
  -- step (1 to 8), so a saved funnel over a year is a sum of rows. The day's state
  -- (slice_days.goals) lists the funnels computed with the goals.
  CREATE TABLE slice_funnels (
    site_id   TEXT NOT NULL,
    day       TEXT NOT NULL,
    kind      TEXT NOT NULL,
    slice     TEXT NOT NULL,
    funnel    TEXT NOT NULL,
    step      INTEGER NOT NULL,
    visitors  INTEGER NOT NULL,
    PRIMARY KEY (site_id, day, kind, slice, funnel, step)
  ) STRICT, WITHOUT ROWID;
  `,
];
