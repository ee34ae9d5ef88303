import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import type { EmailReportStore, ReportKind, SendAttemptRow, SendKey } from '@siteline/core';
import { randomBytes } from 'node:crypto';
import { sqlInt, sqlString } from '../connection/escape.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import { goalVersions } from '../sites/goals.js';

/** The condition naming one send (site, kind, period, address). */
const sendIs = (k: SendKey) =>
  `site_id = ${sqlString(k.site_id)} AND kind = ${sqlString(k.kind)} AND period = ${sqlString(k.period)} AND email = ${sqlString(k.email)}`;

/**
 * How long a claim waits before it reads who won, ms. Every racing claim is inserted within
 * half of it (a claimer slower than that steps back), so by then each claimer sees them all.
 */
export const CLAIM_SETTLE_MS = 2_000;

/**
 * Email report subscriptions and send attempts in ClickHouse (schema version 12). A subscription
 * is the newest version of (site, kind, address). ClickHouse has no transactions, so a
 * scheduled attempt is claimed in three steps: a claimer that finds no claim of the attempt
 * inserts its own (a random `claim_id`), waits `CLAIM_SETTLE_MS`, and sends only when its
 * claim is the smallest of the attempt's claims. Claimers racing all found none before
 * inserting, so each insert landed within `CLAIM_SETTLE_MS / 2` of the others' reads (a
 * claimer whose read and insert took longer steps back, its row standing but never sending),
 * and after the wait every claimer sees every racing claim: exactly one sends (none when the
 * smallest stepped back; the attempt then times out and the next is claimed, see
 * email-reports.ts in core). Inserts are synchronous, a send's rows on one shard. Outcomes
 * are rows of their own; attempt 0 (a send by hand) is recorded without a claim.
 *
 * @example const reports = createClickHouseEmailReportStore(client, { database: 'siteline' }, {});
 */
export function createClickHouseEmailReportStore(client: ClickHouseClient, target: SchemaTarget, insertSettings: ClickHouseSettings): EmailReportStore {
  const subscriptions = tableName(target, 'report_subscriptions');
  const sends = tableName(target, 'report_sends');
  const version = goalVersions();
  const rows = async <T>(query: string): Promise<T[]> => (await client.query({ query, format: 'JSONEachRow' })).json<T>();
  const insert = (table: string, values: object[]) => client.insert({ table, values, format: 'JSONEachRow', clickhouse_settings: insertSettings });
  const claimId = () => randomBytes(16).toString('hex');

  return {
    async saveSubscription(row) {
      await insert(subscriptions, [{ ...row, removed: row.removed ? 1 : 0, version: version() }]);
    },
    async subscriptions(siteId) {
      const found = await rows<{ site_id: string; kind: string; email: string; created: string | number }>(
        `SELECT site_id, kind, email, created FROM (
           SELECT site_id, kind, email, argMax(created_ms, version) AS created, argMax(removed, version) AS gone FROM ${subscriptions}
           ${siteId === undefined ? '' : `WHERE site_id = ${sqlString(siteId)}`} GROUP BY site_id, kind, email)
         WHERE gone = 0`,
      );
      return found.map((s) => ({ site_id: s.site_id, kind: s.kind as ReportKind, email: s.email, created_ms: Number(s.created), removed: false }));
    },
    async claimSend(key, attempt, atMs, unsubscribeHash) {
      const id = claimId();
      const row = { ...key, attempt, claim_id: id, claimed_ms: atMs, outcome: '', unsubscribe_hash: unsubscribeHash };
      if (attempt === 0) return void (await insert(sends, [row])), true;
      const claims = `FROM ${sends} WHERE ${sendIs(key)} AND attempt = ${sqlInt(attempt)} AND outcome = ''`;
      const started = performance.now();
      const [before] = await rows<{ n: string | number }>(`SELECT count() AS n ${claims}`);
      if (Number(before?.n) > 0) return false;
      await insert(sends, [row]);
      if (performance.now() - started > CLAIM_SETTLE_MS / 2) return false; // too slow to be sure every rival sees this claim
      await new Promise((resolve) => setTimeout(resolve, CLAIM_SETTLE_MS));
      const [first] = await rows<{ id: string }>(`SELECT min(claim_id) AS id ${claims}`);
      return first?.id === id;
    },
    async finishSend(key, attempt, outcome, atMs) {
      await insert(sends, [{ ...key, attempt, claim_id: claimId(), claimed_ms: atMs, outcome, unsubscribe_hash: '' }]);
    },
    async sendAttempts(fromPeriod) {
      // Aliases differ from the columns: ClickHouse would read an alias named like a column inside the aggregates.
      const found = await rows<Record<'site_id' | 'kind' | 'period' | 'email' | 'attempt' | 'claim_count' | 'first_claim' | 'result', string | number>>(
        `SELECT site_id, kind, period, email, attempt, countIf(outcome = '') AS claim_count, minIf(claimed_ms, outcome = '') AS first_claim,
           if(countIf(outcome = 'sent') > 0, 'sent', if(countIf(outcome = 'failed') > 0, 'failed', '')) AS result
         FROM ${sends} WHERE period >= ${sqlString(fromPeriod)} GROUP BY site_id, kind, period, email, attempt`,
      );
      return found.map((r) => ({
        site_id: String(r.site_id), kind: r.kind as ReportKind, period: String(r.period), email: String(r.email), attempt: Number(r.attempt),
        claims: Number(r.claim_count), claimed_ms: Number(r.first_claim), outcome: r.result as SendAttemptRow['outcome'],
      }));
    },
    async sendByUnsubscribeHash(hash) {
      const [found] = await rows<SendKey>(`SELECT site_id, kind, period, email FROM ${sends} WHERE unsubscribe_hash = ${sqlString(hash)} LIMIT 1`);
      return found && { ...found, kind: found.kind as ReportKind };
    },
  };
}
