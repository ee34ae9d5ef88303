import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { newSalt, type SaltStore, saltExpiresAt } from '@siteline/core';
import { sqlString } from '../connection/escape.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';

/**
 * A day's salt is final once its first candidate has been stored this long (by the storing
 * server's clock): a process that found no salt proposes one at once, so by then every
 * rival candidate has long arrived, and anything arriving later is later and loses.
 */
export const SALT_SETTLE_SECONDS = 10;

const DAY_MS = 86_400_000;

export interface ClickHouseSaltOptions {
  /** The clock that decides which salts have expired; default `Date.now`. */
  now?: () => number;
  /** Deletes the stored salts of expired days (on every shard). */
  dropDays?: (days: string[]) => Promise<void>;
  /** Settings of the backend's inserts: on a cluster they must be synchronous, so the proposer reads its own candidate. */
  insertSettings?: ClickHouseSettings;
}

/**
 * Daily salts in ClickHouse, agreed by every process without transactions. A process that
 * finds no salt for a day inserts a random candidate; the day's salt is the candidate
 * stored first (the storing server's `now()`, ties broken by value), the same answer for
 * every process. A process keeps re-reading a day until that first candidate is
 * `SALT_SETTLE_SECONDS` old, then keeps it; reading a day also proposes the next one, so in
 * steady state a salt is final long before it is used. Only processes starting together on
 * an empty database can see two candidates, and they agree within those seconds. Salts are
 * dropped 48 hours after their day began, checked at most once an hour.
 *
 * @example
 * const salts = createClickHouseSaltStore(client, { database: 'siteline' });
 * const salt = await salts.saltFor('2026-11-01');
 */
export function createClickHouseSaltStore(client: ClickHouseClient, target: SchemaTarget, options: ClickHouseSaltOptions = {}): SaltStore {
  const now = options.now ?? Date.now;
  const salts = tableName(target, 'salts');
  const final = new Map<string, string>();
  /** A winner not yet final, trusted for a second (so a burst of beacons costs one read a second). */
  const tentative = new Map<string, { salt: string; until: number }>();
  const reading = new Map<string, Promise<{ salt: string; settled: boolean }>>();
  /** Days whose next day this process has proposed already. */
  const proposedNext = new Set<string>();
  let lastPurge = -Infinity;

  const winner = async (day: string) => {
    const [row] = await (
      await client.query({
        query: `SELECT salt, toInt64(now()) - toInt64(inserted) >= ${SALT_SETTLE_SECONDS} AS settled
          FROM ${salts} WHERE day = ${sqlString(day)} ORDER BY inserted, salt LIMIT 1`,
        format: 'JSONEachRow',
      })
    ).json<{ salt: string; settled: number | string }>();
    return row && { salt: row.salt, settled: Number(row.settled) === 1 };
  };
  // VALUES with the column list, so the server fills `inserted` with its own now().
  const propose = (day: string) =>
    client.command({ query: `INSERT INTO ${salts} (day, salt) VALUES (${sqlString(day)}, ${sqlString(newSalt())})`, clickhouse_settings: options.insertSettings ?? {} });

  /** The day's current winner, proposing a candidate when there is none; one read at a time per day. */
  const read = (day: string) => {
    let pending = reading.get(day);
    if (!pending) {
      pending = (async () => {
        const found = await winner(day);
        if (found) return found;
        await propose(day);
        const proposed = await winner(day);
        if (!proposed) throw new Error(`The salt proposed for ${day} cannot be read back from ${salts}.`);
        return proposed;
      })().finally(() => reading.delete(day));
      reading.set(day, pending);
    }
    return pending;
  };

  const purge = async () => {
    const t = now();
    if (!options.dropDays || t - lastPurge < 3_600_000) return;
    lastPurge = t;
    const stored = await (await client.query({ query: `SELECT DISTINCT day FROM ${salts}`, format: 'JSONEachRow' })).json<{ day: string }>();
    const expired = stored.map((d) => d.day).filter((d) => saltExpiresAt(d) <= t);
    for (const day of expired) final.delete(day);
    if (expired.length > 0) await options.dropDays(expired);
  };

  return {
    async saltFor(day) {
      const known = final.get(day) ?? tentative.get(day);
      if (typeof known === 'string') return known;
      if (known && Date.now() < known.until) return known.salt;
      const { salt, settled } = await read(day);
      if (final.size >= 8) final.clear(); // a process needs today's and yesterday's
      if (tentative.size >= 8) tentative.clear();
      if (settled) {
        final.set(day, salt);
        tentative.delete(day);
      } else tentative.set(day, { salt, until: Date.now() + 1000 });
      // Propose tomorrow's salt now, so it is final before anyone needs it; drop expired ones.
      if (!proposedNext.has(day)) {
        if (proposedNext.size >= 8) proposedNext.clear();
        proposedNext.add(day);
        const next = new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
        read(next).catch(() => proposedNext.delete(day)); // tried again on the next call
      }
      purge().catch(() => {}); // a later call tries again
      return salt;
    },
  };
}
