import { describe, expect, it } from 'vitest';
import { parseQuery } from '../query/parse.js';
import { createSite } from '../sites/sites.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { daysBetween, shiftDay } from '../time/zone.js';
import { comparedDays } from './compare.js';
import { REPORTS } from './index.js';

describe('ranges at the ends of the calendar', () => {
  it('days and compared ranges past year 9999 or before year 0000 are ISO 8601 expanded years, never a loop or a crash', () => {
    expect(daysBetween('9999-12-30', '9999-12-31')).toEqual(['9999-12-30', '9999-12-31']);
    expect(shiftDay('9999-12-31', 1)).toBe('+010000-01-01');
    expect(comparedDays('0000-01-01', '0000-01-31', 'previous_period')).toEqual({ from: '-000001-12-01', to: '-000001-12-31' });
    expect(comparedDays('0000-02-29', '0000-03-01', 'year_over_year')).toEqual({ from: '-000001-02-28', to: '-000001-03-01' });
  });

  it('every report answers such ranges (zeros), filtered, compared and bucketed', async () => {
    const storage = createSqliteStorage(':memory:');
    await createSite(storage, { id: 'ST-a', name: 'A', timezone: 'Europe/Berlin' });
    const filters = '[["is","country",["DE"]]]';
    const late = await REPORTS.timeseries(storage, parseQuery('timeseries', { site_id: 'ST-a', from: '9999-12-25', to: '9999-12-31', interval: 'week', compare: 'year_over_year', filters }));
    expect(late).toEqual({
      timeseries: [
        { date: '9999-12-20', visitors: 0, pageviews: 0, sessions: 0 }, // 9999-12-25 is a Saturday
        { date: '9999-12-27', visitors: 0, pageviews: 0, sessions: 0 },
      ],
      comparison: [
        { date: '9998-12-21', visitors: 0, pageviews: 0, sessions: 0 },
        { date: '9998-12-28', visitors: 0, pageviews: 0, sessions: 0 },
      ],
    });
    const early = await REPORTS.stats(storage, parseQuery('stats', { site_id: 'ST-a', from: '0000-01-01', to: '0000-01-31', compare: 'previous_period', filters }));
    expect(early).toMatchObject({ sessions: 0, comparison: { from: '-000001-12-01', to: '-000001-12-31', sessions: 0 } });
    await storage.close();
  });
});
