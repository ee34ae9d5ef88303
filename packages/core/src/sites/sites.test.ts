import { describe, expect, it } from 'vitest';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { createSite, generateSiteId } from './sites.js';

describe('sites', () => {
  it('generates ST- ids from the CSPRNG', () => {
    const ids = new Set(Array.from({ length: 1000 }, generateSiteId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^ST-[A-Za-z0-9]{12}$/);
  });

  it('validates and stores a site', async () => {
    const storage = createSqliteStorage(':memory:');
    const site = await createSite(storage, { name: ' Shop ', timezone: 'Europe/Berlin', domain: 'WWW.Shop.Example' });
    expect(site).toMatchObject({ name: 'Shop', timezone: 'Europe/Berlin', domain: 'shop.example', accountId: null });
    expect(await storage.getSite(site.id)).toEqual(site);
    expect((await createSite(storage, { id: 'ST-x1', name: 'X' })).timezone).toBe('UTC');
    await expect(createSite(storage, { id: 'ST-x1', name: 'Y' })).rejects.toThrow('A site with id ST-x1 already exists.');
    await expect(createSite(storage, { name: 'Z', timezone: 'Mars/Base' })).rejects.toThrow('Unknown time zone "Mars/Base"; use an IANA name such as Europe/Berlin.');
    await expect(createSite(storage, { id: 'site-1', name: 'Z' })).rejects.toThrow('A site id is ST- followed by letters and digits, e.g. ST-blog1.');
    await expect(createSite(storage, { name: '' })).rejects.toThrow('A site needs a name.');
    await expect(createSite(storage, { name: 'Z', domain: 'https://x.com/' })).rejects.toThrow('A domain is a host name such as example.com (no scheme or path).');
  });
});
