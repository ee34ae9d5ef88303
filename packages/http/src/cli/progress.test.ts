import { describe, expect, it } from 'vitest';
import { progressLine } from './progress.js';

function run(isTTY: boolean, times: number[]) {
  let text = '';
  const out = { isTTY, write: (s: string) => ((text += s), true) };
  let i = 0;
  const progress = progressLine(out as never, () => times[i++]!);
  for (let lines = 10_000; i < times.length; lines += 10_000) progress.update(lines);
  progress.clear();
  return text;
}

describe('progressLine', () => {
  it('stays quiet for the first second, then rewrites one line on a terminal', () => {
    expect(run(true, [0, 500, 900])).toBe('');
    expect(run(true, [0, 1_100, 1_200, 1_400])).toBe('\r\x1b[2KReading events: 10,000 lines...\r\x1b[2KReading events: 30,000 lines...\r\x1b[2K');
  });

  it('writes a plain line every five seconds to a pipe or file', () => {
    expect(run(false, [0, 1_000, 5_500, 6_000, 11_000])).toBe('Reading events: 20,000 lines...\nReading events: 40,000 lines...\n');
  });
});
