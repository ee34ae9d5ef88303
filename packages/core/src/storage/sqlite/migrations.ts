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
];
