import { describe, expect, it } from 'vitest';
import { SessionStore } from './sessions.js';

const principal = (keyId: string) => ({ keyId });

describe('SessionStore', () => {
  it('ids are 256 random bits as base64url (43 characters), different every time', () => {
    const store = new SessionStore();
    const ids = new Set(Array.from({ length: 100 }, () => store.create(principal('k'), 0)));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('idle expiry: unused for idleMs ends a session; each use restarts the wait', () => {
    const store = new SessionStore({ idleMs: 1000 });
    const id = store.create(principal('k'), 0);
    expect(store.get(id, 999)?.keyId).toBe('k');
    expect(store.get(id, 1998)?.keyId).toBe('k');
    expect(store.get(id, 2998)).toBeUndefined();
    expect(store.size).toBe(0); // an expired session found on use is dropped
  });

  it('maximum age: a session in constant use still ends maxAgeMs after sign-in', () => {
    const store = new SessionStore({ idleMs: 1000, maxAgeMs: 2500 });
    const id = store.create(principal('k'), 0);
    expect(store.get(id, 900)).toBeDefined();
    expect(store.get(id, 1800)).toBeDefined();
    expect(store.get(id, 2499)).toBeDefined();
    expect(store.get(id, 2500)).toBeUndefined();
  });

  it('bounded: signing in beyond maxSessions ends the least recently used session', () => {
    const store = new SessionStore({ maxSessions: 3 });
    const a = store.create(principal('a'), 0);
    const b = store.create(principal('b'), 1);
    const c = store.create(principal('c'), 2);
    expect(store.get(a, 3)?.keyId).toBe('a'); // a is now the most recently used; b the least
    const d = store.create(principal('d'), 4);
    expect(store.size).toBe(3);
    expect([store.get(a, 5)?.keyId, store.get(b, 5)?.keyId, store.get(c, 5)?.keyId, store.get(d, 5)?.keyId]).toEqual(['a', undefined, 'c', 'd']);
  });

  it('idle sessions are swept at the next sign-in, not only when used', () => {
    const store = new SessionStore({ idleMs: 1000 });
    store.create(principal('a'), 0);
    store.create(principal('b'), 500);
    store.create(principal('c'), 1600); // a (idle 1600) and b (idle 1100) go
    expect(store.size).toBe(1);
  });

  it('unknown, malformed and deleted ids read nothing', () => {
    const store = new SessionStore();
    const id = store.create(principal('k'), 0);
    expect(store.get(undefined, 1)).toBeUndefined();
    expect(store.get('short', 1)).toBeUndefined();
    expect(store.get(`${id}x`, 1)).toBeUndefined();
    store.delete(id);
    expect(store.get(id, 1)).toBeUndefined();
  });
});
