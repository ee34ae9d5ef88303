import type Database from 'better-sqlite3';
import type { EmailReportStore, ReportKind, SendAttemptRow, SendKey, SubscriptionRow } from '../../email-reports/types.js';

/**
 * Email report subscriptions and send attempts in the SQLite store's database, on its
 * connection. A scheduled attempt is claimed by one `INSERT OR IGNORE` under the unique
 * index of (site, kind, period, address, attempt): of any number of connections and
 * processes on the file exactly one inserts, and only it sends. Unsubscribing deletes the row.
 */
export function createSqliteEmailReportStore(db: Database.Database): EmailReportStore {
  const subscribe = db.prepare(`INSERT INTO report_subscriptions (site_id, kind, email, created_ms) VALUES (@site_id, @kind, @email, @created_ms)
    ON CONFLICT (site_id, kind, email) DO UPDATE SET created_ms = excluded.created_ms`);
  const remove = db.prepare('DELETE FROM report_subscriptions WHERE site_id = @site_id AND kind = @kind AND email = @email');
  const ofSite = db.prepare<[string], Omit<SubscriptionRow, 'removed'>>('SELECT * FROM report_subscriptions WHERE site_id = ?');
  const all = db.prepare<[], Omit<SubscriptionRow, 'removed'>>('SELECT * FROM report_subscriptions');
  const claim = db.prepare(`INSERT OR IGNORE INTO report_sends (site_id, kind, period, email, attempt, claimed_ms, outcome, unsubscribe_hash)
    VALUES (@site_id, @kind, @period, @email, @attempt, @at, '', @hash)`);
  const finish = db.prepare(`UPDATE report_sends SET outcome = @outcome
    WHERE site_id = @site_id AND kind = @kind AND period = @period AND email = @email AND attempt = @attempt AND attempt > 0`);
  const attempts = db.prepare<[string], Omit<SendAttemptRow, 'claims'>>(
    'SELECT site_id, kind, period, email, attempt, claimed_ms, outcome FROM report_sends WHERE period >= ?',
  );
  const byHash = db.prepare<[string], SendKey>('SELECT site_id, kind, period, email FROM report_sends WHERE unsubscribe_hash = ? LIMIT 1');
  return {
    async saveSubscription(row) {
      (row.removed ? remove : subscribe).run({ site_id: row.site_id, kind: row.kind, email: row.email, ...(row.removed ? {} : { created_ms: row.created_ms }) });
    },
    async subscriptions(siteId) {
      return (siteId === undefined ? all.all() : ofSite.all(siteId)).map((row) => ({ ...row, kind: row.kind as ReportKind, removed: false }));
    },
    async claimSend(key, attempt, atMs, unsubscribeHash) {
      return claim.run({ ...key, attempt, at: atMs, hash: unsubscribeHash }).changes === 1;
    },
    async finishSend(key, attempt, outcome) {
      finish.run({ ...key, attempt, outcome });
    },
    async sendAttempts(fromPeriod) {
      return attempts.all(fromPeriod).map((row) => ({ ...row, claims: 1 }));
    },
    async sendByUnsubscribeHash(hash) {
      return byHash.get(hash);
    },
  };
}
