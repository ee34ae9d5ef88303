/**
 * The one error type of the HTTP layer: a status and the message of its JSON
 * body (`{"error": message}`), plus any headers it needs. Everything else
 * thrown while handling a request becomes a logged 500.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Bodies of decisions.md section 6, written once. */
export const HTTP_MESSAGES = {
  https: 'HTTPS is required.',
  unauthorized: 'Unauthorized',
  tooManyRequests: 'Too Many Requests',
  notFound: 'Not Found',
  methodNotAllowed: 'Method Not Allowed',
  serverError: 'Server Error',
  uriTooLong: 'URI Too Long',
  /** Protocol errors, some answered before any handler runs (see server-limits.ts). */
  badRequest: 'Bad Request',
  requestTimeout: 'Request Timeout',
  payloadTooLarge: 'Payload Too Large',
  expectationFailed: 'Expectation Failed',
  headersTooLarge: 'Request Header Fields Too Large',
} as const;

export const unauthorized = () => new HttpError(401, HTTP_MESSAGES.unauthorized, { 'WWW-Authenticate': 'Bearer' });
