import { type CliIo, formatCount } from './io.js';

/**
 * "Reading events: N lines..." (or other words: `what`) on stderr once an import has run for a
 * second (short imports stay quiet): rewritten in place on a terminal, a
 * plain line every few seconds when stderr is a file or pipe, so logs stay readable.
 * @example const progress = progressLine(process.stderr); importEvents(storage, input, { onProgress: progress.update });
 */
export function progressLine(out: CliIo['stderr'], clock: () => number = () => performance.now(), what = { reading: 'events', unit: 'lines' }) {
  const started = clock();
  let last = started;
  let shown = false;
  return {
    update(lines: number) {
      const now = clock();
      if (now - started < 1_000 || now - last < (out.isTTY ? 250 : 5_000)) return;
      last = now;
      shown = true;
      const text = `Reading ${what.reading}: ${formatCount(lines)} ${what.unit}...`;
      out.write(out.isTTY ? `\r\x1b[2K${text}` : `${text}\n`);
    },
    /** Removes the line from a terminal before the summary is printed. */
    clear() {
      if (shown && out.isTTY) out.write('\r\x1b[2K');
    },
  };
}
