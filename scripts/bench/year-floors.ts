/**
 * The floors of the year's reads on ClickHouse: for each case, range and endpoint, the
 * endpoint's plain aggregate over the raw rows of the range with each condition a `WHERE`
 * on the row's own columns (clickhouse-floors.ts), the least that reads the columns the
 * answer needs. Measured on the same server in the same run.
 */
import { extensionFloorSql, propertyFloorSql } from './clickhouse-floors.js';
import { time, type Timing } from './measure.js';
import { YEAR_CASES, YEAR_ENDPOINTS, YEAR_RANGES, type YearCase, yearParams, yearRange, type YearRange } from './year-reads.js';
import type { EndpointName } from '../../packages/core/src/types.js';

export interface YearFloor {
  case: YearCase;
  range: YearRange;
  endpoint: EndpointName;
  timing: Timing;
}

export async function yearFloors(
  query: (sql: string) => Promise<unknown>, o: { siteId: string; lastDay: string; runs: number; cases?: readonly YearCase[]; endpoints?: readonly EndpointName[]; log: (text: string) => void },
): Promise<YearFloor[]> {
  const out: YearFloor[] = [];
  for (const name of o.cases ?? (Object.keys(YEAR_CASES) as YearCase[])) {
    for (const range of YEAR_RANGES) {
      for (const endpoint of o.endpoints ?? YEAR_ENDPOINTS) {
        const { from, to } = yearRange(range, o.lastDay);
        const params = yearParams(o.siteId, name, range, endpoint, o.lastDay);
        const goal = name.startsWith('goal');
        const sql = goal || endpoint === 'properties' ? propertyFloorSqlOrNull(endpoint, o.siteId, from, to, params) : extensionFloorSql('bench', endpoint, o.siteId, from, to, params);
        if (!sql) continue;
        try {
          await query(sql);
          const { timing } = await time(o.runs, () => query(sql));
          out.push({ case: name, range, endpoint, timing });
          o.log(`floor ${name}, ${range}, ${endpoint}: ${timing.p50.toFixed(1)} ms`);
        } catch (error) {
          // A floor the server refuses (at 100M, a year's plain aggregate can pass the test server's 2 GB a query) has no ratio.
          o.log(`floor ${name}, ${range}, ${endpoint}: refused: ${String(error).split('\n')[0]!.slice(0, 200)}`);
        }
      }
    }
  }
  return out;
}

/** `propertyFloorSql` where it has a floor (goal conditions and /properties unfiltered); undefined otherwise. */
function propertyFloorSqlOrNull(endpoint: EndpointName, siteId: string, from: string, to: string, params: Record<string, string>): string | undefined {
  try {
    return propertyFloorSql('bench', endpoint, siteId, from, to, params);
  } catch {
    return undefined;
  }
}

/**
 * The floor of a case on SQLite where a target is missed: the least a read from the raw rows
 * does for the case's conditions, with the indexes there are (events by time, sessions by day):
 * an attribute's sessions of the range counted (a scan of the range's sessions), a page's or an
 * event's rows counted (a scan of the range's events); two conditions, the cheaper of theirs.
 * None for unfiltered reads (rollups and slices: a few rows per day and value).
 * A design that reads fewer rows than these has the answer summed ahead (slices).
 */
export function sqliteFloorSql(name: YearCase, siteId: string, from: string, to: string, startMs: number, endMs: number): { sql: string; args: unknown[] }[] {
  const sessions = (column: string, value: string) => ({
    sql: `SELECT COUNT(*), COUNT(DISTINCT day || char(0) || visitor_id) FROM sessions WHERE site_id = ? AND day BETWEEN ? AND ? AND ${column} = ?`,
    args: [siteId, from, to, value],
  });
  const events = (type: 0 | 1, column: string, value: string) => ({
    sql: `SELECT COUNT(*) FROM events WHERE site_id = ? AND ts >= ? AND ts < ? AND type = ${type} AND ${column} = ?`,
    args: [siteId, startMs, endMs, value],
  });
  switch (name) {
    case 'unfiltered': return [];
    case 'country is DE': return [sessions('country_code', 'DE')];
    case 'channel is Organic Search': return [sessions('channel', 'Organic Search')];
    case 'page is /pricing': return [events(0, 'path', '/pricing')];
    case 'goal is signup': return [events(1, 'name', 'signup')];
    case 'country is DE, page is /pricing': return [sessions('country_code', 'DE'), events(0, 'path', '/pricing')];
  }
}
