import { describe, expect, it } from 'vitest';
import { ClientBudget } from './client-budget.js';

const T = 1_800_000_000_000;

describe('ClientBudget (token bucket per client network)', () => {
  it('lets a client spend its whole budget at once, then one unit per window/limit', () => {
    const budget = new ClientBudget({ limit: 3, windowMs: 60_000 });
    expect([1, 2, 3, 4].map(() => budget.take('198.51.100.1', T))).toEqual([true, true, true, false]);
    expect(budget.has('198.51.100.1', T)).toBe(false);
    expect(budget.retryAfterSeconds('198.51.100.1', T)).toBe(20); // 3 units a minute: one every 20 s
    expect(budget.take('198.51.100.2', T)).toBe(true); // another client has its own budget
    expect(budget.take('198.51.100.1', T + 19_999)).toBe(false);
    expect(budget.take('198.51.100.1', T + 20_000 + 19_999)).toBe(true); // the refused take cost nothing
    expect(budget.take('198.51.100.1', T + 40_000)).toBe(false);
  });

  it('past maxClients tracked clients, the others share one budget; refilled clients are forgotten', () => {
    const budget = new ClientBudget({ limit: 2, windowMs: 60_000, maxClients: 2 });
    expect(budget.take('a', T) && budget.take('b', T)).toBe(true);
    expect([budget.take('c', T), budget.take('d', T), budget.take('e', T)]).toEqual([true, true, false]); // c, d, e share
    // A minute later a and b have refilled: the next sweep forgets them and d gets a bucket of its own.
    expect([budget.take('d', T + 60_000), budget.take('d', T + 60_000), budget.take('d', T + 60_000)]).toEqual([true, true, false]);
  });
});
