import { HTTP_MESSAGES, HttpError } from '../errors.js';
import { OPENAPI_PATH, openApiDocument } from './document.js';

/**
 * The document's route, for the API handler: the document for `GET`/`HEAD`
 * of `<basePath>/openapi.json` (no key needed), a 405 for other methods there,
 * `undefined` for every other path.
 */
export function openApiRoute(basePath: string, pathname: string, method: string | undefined): object | undefined {
  if (pathname !== `${basePath}${OPENAPI_PATH}`) return undefined;
  if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, HTTP_MESSAGES.methodNotAllowed, { Allow: 'GET, HEAD' });
  return openApiDocument(basePath);
}
