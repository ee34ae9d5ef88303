import { describe, expect, it } from 'vitest';
import { FunnelError } from '../errors.js';
import { createSite } from '../sites/sites.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { MAX_FUNNELS } from './funnel.js';
import { addFunnel, FUNNEL_MESSAGES, listFunnels } from './funnels.js';

const steps = [{ page: '/a' }, { event: 'b' }];

describe('saved funnels under concurrency (SQLite: the name and the count checked in the insert itself)', () => {
  it('adds fired at once: one of ten with the same name, twenty of twenty-five with different names', async () => {
    const storage = createSqliteStorage(':memory:');
    await createSite(storage, { id: 'ST-a', name: 'A' });
    for (let round = 0; round < 3; round++) {
      const site = `ST-r${round}`;
      await createSite(storage, { id: site, name: 'R' });
      const same = await Promise.allSettled(Array.from({ length: 10 }, () => addFunnel(storage, site, { name: 'Same', steps })));
      expect(same.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of same) if (r.status === 'rejected') expect(r.reason).toEqual(new FunnelError(FUNNEL_MESSAGES.taken('Same')));
      const many = await Promise.allSettled(Array.from({ length: 25 }, (_, i) => addFunnel(storage, site, { name: `F${i}`, steps })));
      expect(many.filter((r) => r.status === 'fulfilled')).toHaveLength(MAX_FUNNELS - 1);
      for (const r of many) if (r.status === 'rejected') expect(r.reason).toEqual(new FunnelError(FUNNEL_MESSAGES.tooMany));
      expect(await listFunnels(storage, site)).toHaveLength(MAX_FUNNELS);
    }
    await storage.close();
  });
});
