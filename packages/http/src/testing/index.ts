/**
 * Test helpers of the HTTP package (not part of the published package):
 * `checkApiResponse` holds every API response a test receives to the OpenAPI
 * document. Import as `@siteline/http/testing` (an alias of vitest and tsc).
 */
export { checkApiResponse, checkedListener, checkedResponses, contractFailures, type ApiReply } from './api-contract.js';
