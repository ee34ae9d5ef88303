import { describe, expect, it } from 'vitest';
import { type BackgroundFailure, reportingCommand } from './failures.js';

describe('reportingCommand', () => {
  it('tells each failure once a minute per work and message, with how many it held back, and throws it on', async () => {
    let clock = 1_000_000;
    const told: BackgroundFailure[] = [];
    const wrap = reportingCommand((f) => told.push(f), () => clock);
    const failWith = (message: string) => () => Promise.reject(new Error(message));
    const memory = wrap('visitor rollups', failWith('Memory limit (for query) exceeded'));
    const goals = wrap('goal counts', failWith('Memory limit (for query) exceeded'));

    await expect(memory('INSERT 1')).rejects.toThrow('Memory limit (for query) exceeded');
    clock += 10_000;
    await expect(memory('INSERT 2')).rejects.toThrow('Memory limit');
    await expect(goals('INSERT 3')).rejects.toThrow('Memory limit'); // another work: told
    clock += 49_999;
    await expect(memory('INSERT 4')).rejects.toThrow('Memory limit'); // 59.999 s after the first: held
    clock += 1;
    await expect(memory('INSERT 5')).rejects.toThrow('Memory limit'); // 60 s: told, with the two held
    await expect(wrap('visitor rollups', failWith('Table x.y doesn\'t exist.\n'))('INSERT 6')).rejects.toThrow('doesn\'t exist'); // another message (the server's newline trimmed)
    expect(told).toEqual([
      { work: 'visitor rollups', error: 'Memory limit (for query) exceeded', repeated: 0 },
      { work: 'goal counts', error: 'Memory limit (for query) exceeded', repeated: 0 },
      { work: 'visitor rollups', error: 'Memory limit (for query) exceeded', repeated: 2 },
      { work: 'visitor rollups', error: "Table x.y doesn't exist.", repeated: 0 },
    ]);
  });

  it('passes successes through untold, trims messages and cuts them to 500 characters, and a reporter that throws changes nothing', async () => {
    const told: BackgroundFailure[] = [];
    const ran: string[] = [];
    await reportingCommand((f) => told.push(f))('goal counts', async (q) => void ran.push(q))('INSERT ok');
    expect([ran, told]).toEqual([['INSERT ok'], []]);
    const long = 'x'.repeat(2000);
    await expect(reportingCommand((f) => told.push(f))('goal counts', () => Promise.reject(new Error(long)))('q')).rejects.toThrow(long);
    expect(told.map((f) => f.error.length)).toEqual([500]);
    const throwing = reportingCommand(() => { throw new Error('logger broke'); });
    await expect(throwing('funnel counts', () => Promise.reject(new Error('the real failure')))('q')).rejects.toThrow('the real failure');
  });
});
