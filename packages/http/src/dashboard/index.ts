/** The dashboard: pages, sessions, assets and the data routes beside the API. */
export { createDashboardHandler, type DashboardHandler, type DashboardHandlerOptions } from './handler.js';
export { CONTENT_SECURITY_POLICY, SESSION_COOKIE } from './http-io.js';
