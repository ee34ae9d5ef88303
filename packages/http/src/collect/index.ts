/**
 * Collection: `GET /tracker.js` and `POST /collect`, mounted beside the read API.
 *
 * @example
 * import { createCollectHandler } from '@siteline/http';
 * const collect = createCollectHandler({ storage, trustProxy: true });
 * server.on('request', (req, res) => collect(req, res, () => api(req, res)));
 */
export { createCollectHandler, type CollectHandler, type CollectHandlerOptions } from './handler.js';
export type { BatchOptions } from './batch-writer.js';
export { DEFAULT_BEACON_LIMIT, type BeaconLimit } from './beacon-limit.js';
export { DEFAULT_OPEN_SESSIONS_BYTES } from './sessions.js';
export type { CollectOutcome } from './collector.js';
export type { CollectCount, CollectStats } from './stats.js';
export { COLLECT_MESSAGES, MAX_BODY_BYTES, MAX_URL_CHARS, type CollectPayload } from './payload.js';
export { clientIp } from './client-ip.js';
export { TRACKER_SCRIPT } from './tracker-script.js';
export { QUEUE_STUB, TRACKER_NAME, trackerSnippet } from './snippet.js';
