/**
 * @siteline/core: the ten read reports of the Siteline API as plain async
 * functions over a pluggable `Storage`, the backend contract with its SQLite
 * implementation (the embedded default), and NDJSON import.
 *
 * @example
 * import { createSqliteStorage, getStats, parseQuery } from '@siteline/core';
 * const storage = createSqliteStorage('siteline.db');
 * const stats = await getStats(storage, parseQuery('stats', { site_id: 'ST-blog', period: '7d' }));
 */
export * from './types.js';
export * from './errors.js';
export { parseQuery, parseExportQuery, type ExportQuery, type Query, type RawParams, type DateSelection } from './query/parse.js';
export {
  MESSAGES, DEFAULT_LIMIT, MAX_LIMIT, MAX_RANGE_DAYS, PERIOD_DAYS, MAX_FILTER_CONDITIONS, MAX_FILTER_VALUES, MAX_FILTER_VALUE_LENGTH,
  MAX_FILTERS_LENGTH, MAX_HOUR_RANGE_DAYS, MAX_PROPERTIES, MAX_PROPERTY_KEY_LENGTH, MAX_PROPERTY_VALUE_LENGTH, PROP_DIMENSION_PREFIX,
} from './query/messages.js';
export {
  SITE_ID_PATTERN, isCalendarDate, siteIdSchema, dateSchema, periodSchema, limitSchema, breakdownSchema, eventNameSchema,
  filterConditionSchema, filterConditionsSchema, filterValuesSchema, compareSchema, intervalSchema, importedSchema, ENDPOINT_OWN_PARAMETERS,
  FORMATS, type Format, formatSchema, funnelStepSchema, funnelStepsSchema, funnelNameSchema,
  requiredEventNameSchema, propertySchema, filterDimensionSchema, PROP_DIMENSION_PATTERN, type EndpointParameter,
} from './query/schema.js';
export { bounceRate, averageSeconds, percentage, conversionRate } from './metrics/metrics.js';
export { sortRows, compareBytes } from './metrics/order.js';
export { getStats, getTimeseries } from './reports/summary.js';
export { getPages } from './reports/pages.js';
export { getReferrers, getChannels, getLocations, getDevices, getCampaigns } from './reports/breakdowns.js';
export { getEvents, getLive, LIVE_WINDOW_MS } from './reports/events.js';
export { getProperties } from './reports/properties.js';
export { getGoals } from './reports/goals.js';
export { getFunnel } from './reports/funnels.js';
export {
  type Funnel, type FunnelEvent, stepGoal, stepName, stepsReached, recordOrder, MIN_FUNNEL_STEPS, MAX_FUNNEL_STEPS, MAX_FUNNELS, MAX_FUNNEL_NAME_LENGTH,
} from './funnels/funnel.js';
export { addFunnel, listFunnels, deleteFunnel, FUNNEL_MESSAGES, type NewFunnel } from './funnels/funnels.js';
export { parseSteps, MAX_STEPS_LENGTH } from './query/funnel-params.js';
export { funnelSteps } from './metrics/funnel-steps.js';
export { type Goal, type GoalDefinition, goalName, goalPatternMatches, meetsGoal, PAGE_GOAL_PREFIX } from './goals/goal.js';
export { addGoal, listGoals, deleteGoal, GOAL_MESSAGES, MAX_GOALS, MAX_GOAL_PATTERN_LENGTH } from './goals/goals.js';
export { parseProps, PROPS_MESSAGES, type PropsResult } from './props/props.js';
export { wellFormed } from './props/text.js';
export { REPORTS, type Report, type ReportBody } from './reports/index.js';
export { type ReportOptions, readableSite } from './reports/resolve.js';
export { comparedDays } from './reports/compare.js';
export { hourBuckets, isoWeekMonday } from './reports/buckets.js';
export { parseFilters } from './query/filters.js';
export {
  conditionHolds, allHold, compileSelection, bucketIndex, FILTER_ATTRIBUTES, SESSION_ATTRIBUTE_COLUMN, type SessionAttributeColumns,
  isPropDimension, propValue, eventPasses, goalConditionHolds, convertsOnAny, hasConditions, type GoalEvent,
} from './storage/selection.js';
export type * from './storage/types.js';
export { createSqliteStorage, type SqliteStorageOptions, type SqliteSynchronous } from './storage/sqlite/sqlite-storage.js';
export { openSqliteBackend, type SqliteBackendOptions } from './storage/sqlite/sqlite-backend.js';
export { type Backend, type BackendCapabilities, type BackendRole, BackendError } from './backend.js';
export { createSite, editSite, generateSiteId, type NewSite, type SiteEdit } from './sites/sites.js';
export { importEvents, type ImportInput, type ImportOptions, type ImportSummary } from './import/import.js';
export { enrichEvent, type IncomingEvent, type EnrichedEvent } from './import/enrich.js';
export { Sessionizer, stampSessions, stampEvent, continuesSession, newSessionId, SESSION_GAP_MS, type SessionFirstEvent } from './import/sessionize.js';
export { deriveVisitorId } from './import/visitor.js';
export { parseImportLine, importLineSchema, MAX_LINE_LENGTH } from './import/line-schema.js';
export { isValidTimeZone, localDay, dayStart, shiftDay, daysBetween, runsOf } from './time/zone.js';
export type { Account, AccountStore, ApiKeyInfo, KeyIdentity } from './accounts/types.js';
export {
  COMMUNITY_ACCOUNT, type ExpiryBounds, type LinkRow, type PeopleStore, type Role, ROLES, type SignInAttempt, type SignInRow, type UserChange, type UserRow, type WebSessionRow,
} from './people/types.js';
export { type ReservedAttempt, SignInThrottle, THROTTLE_DEFAULTS, type ThrottleOptions } from './people/throttle.js';
export { People, type PeopleOptions, type SessionSubject } from './people/people.js';
export { ATTEMPTS_KEPT_MS, CLEANUP_INTERVAL_MS, csrfMatches, LINK_TTL_MS, MAX_EMAIL_LENGTH, normalEmail, PeopleError, SESSION_LIMITS, TOKEN_PATTERN, TOTP_STEP_MS } from './people/rules.js';
export { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem, SCRYPT_PARAMS, verifyPassword, verifyPasswords } from './people/passwords.js';
export { newToken, tokenHash } from './people/tokens.js';
export type { SharedLinkRow, ShareStore } from './sharing/types.js';
export { frameAncestor, type LinkPasswordCheck, linkThrottleSubject, MAX_FRAME_ANCESTORS, MAX_LINK_NAME_LENGTH, MAX_LINKS_PER_SITE, type NewSharedLink, ShareError, SharedLinks, type SharedLinksOptions } from './sharing/links.js';
export { type EmailReportStore, REPORT_KINDS, type ReportKind, type SendAttemptRow, type SendKey, type SubscriptionRow } from './email-reports/types.js';
export { type DayPair, latestPeriod, periodOf, type ReportPeriod, SEND_HOUR } from './email-reports/periods.js';
export { CLAIM_TIMEOUT_MS, type DueSend, EmailReports, MAX_FAILURES, MAX_SUBSCRIBERS, nextAttempt, RETRY_AFTER_MS } from './email-reports/email-reports.js';
export { REPORT_TOP_ROWS, type ReportFigures, reportFigures } from './email-reports/figures.js';
export { type Change, type ChangeKind, measureChange, SUMMARY_CHANGE } from './metrics/change.js';
export { CLOUD_KEY_PATTERN, generateCloudKey, hashCloudKey, hashesEqual, maskKey } from './accounts/keys.js';
export { accountIdFor, newAccountId, newKeyId, newSharedLinkId, newUserId, accountName, keyInfo, byCreation, type StoredKeyRow, LAST_USED_RESOLUTION_MS } from './accounts/rules.js';
export * from './derive/index.js';
export {
  type SaltStore,
  type MemorySaltStore,
  createMemorySaltStore,
  newSalt,
  saltExpiresAt,
  SALT_RETENTION_MS,
} from './salts/salts.js';
export * from './demo/index.js';
export { toCsv, csvField, type CsvValue } from './csv/csv-writer.js';
export { CSV_TABLES, csvTable } from './csv/csv-tables.js';
export { csvReport, type CsvReport } from './csv/csv-report.js';
export { openExport, EXPORT_PAGE_SIZE, type EventExport } from './export/export-events.js';
export { exportLine } from './export/export-line.js';
export { importPlausible, type PlausibleImportOptions, type PlausibleImportSummary } from './import/plausible/plausible.js';
export { IMPORTED_TABLES, type ImportedTable, type ImportedRow, type ImportedDataset, type ImportedMetrics, type ImportedTotals, type ImportedTotalsRequest, type KeyCondition, type DayRun, type DayBounds } from './imported/types.js';
export { IMPORTED_TABLE_KEYS, MAX_IMPORTED_KEYS, SESSION_TABLES } from './imported/tables.js';
export { importParsed, type RecordResult, type TakeRecord } from './import/import.js';
export { parseImportObject } from './import/line-schema.js';
export { importUmami, type UmamiImportOptions } from './import/umami/umami.js';
export { importGa4, type Ga4ImportOptions } from './import/ga4/ga4.js';
export { GA4_AUTOMATIC_EVENTS } from './import/ga4/ga4-row.js';
export { importedDayRuns } from './imported/plan.js';
