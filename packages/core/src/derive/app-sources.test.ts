import { describe, expect, it } from 'vitest';
import { APP_SOURCES } from './app-sources.js';
import { HOSTS } from './source-lists.js';
import { hostCategory } from './sources.js';

describe('APP_SOURCES', () => {
  it.each(Object.entries(APP_SOURCES))('%s belongs to a host the lists categorise (%s)', (app, source) => {
    expect(HOSTS.get(source)).not.toBeUndefined();
    expect(hostCategory(app)).toBe(HOSTS.get(source));
    expect(hostCategory(app)).not.toBeNull();
  });
});
