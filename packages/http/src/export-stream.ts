import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventExport } from '@siteline/core';

/** Path of the export below the API's base path (issue 27). */
export const EXPORT_PATH = '/export';

/**
 * Sends an export as `application/x-ndjson`, chunk by chunk, with backpressure: when
 * `res.write()` returns false the next page is not read until the socket drains, so memory
 * stays at one page however slow the client. A client that goes away stops the reading.
 * The length is not known in advance (chunked). An error after the headers went out can
 * no longer become a JSON error: the response is destroyed (the client sees a cut-off
 * transfer, never a complete-looking file) and the error is thrown for the log.
 */
export async function streamExport(req: IncomingMessage, res: ServerResponse, exported: EventExport, headers: Record<string, string>): Promise<number> {
  res.writeHead(200, {
    ...headers,
    'Content-Type': 'application/x-ndjson; charset=utf-8',
    'Content-Disposition': `attachment; filename="${exported.filename}"`,
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    await exported.chunks.return(undefined);
    res.end();
    return 200;
  }
  try {
    for await (const chunk of exported.chunks) {
      if (res.destroyed) break;
      if (!res.write(chunk)) await drainedOrClosed(res);
    }
    res.end();
  } catch (error) {
    res.destroy();
    throw error;
  }
  return 200;
}

/**
 * Until `res` drains or closes. Both waits are ended either way: a `once` left pending keeps
 * its listeners (and `once`'s own 'error' listener) on the response, one more per wait for
 * as long as the export runs.
 */
async function drainedOrClosed(res: ServerResponse): Promise<void> {
  const done = new AbortController();
  try {
    await Promise.race([once(res, 'drain', { signal: done.signal }), once(res, 'close', { signal: done.signal })]);
  } finally {
    done.abort();
  }
}
