import { SiteNotFoundError, UnsupportedQueryError } from '../errors.js';
import { PERIOD_DAYS } from '../query/messages.js';
import type { Query } from '../query/parse.js';
import type { Goal } from '../goals/goal.js';
import { compileSelection, isPropDimension } from '../storage/selection.js';
import type { DayRange, Selection, Storage } from '../storage/types.js';
import { dayStart, localDay, shiftDay } from '../time/zone.js';
import type { Site } from '../types.js';
import { type ImportedPlan, type ImportedRead, planImported } from '../imported/plan.js';
import type { ImportedDataset } from '../imported/types.js';
import type { ImportedNote } from '../types.js';
import { comparedDays } from './compare.js';

/** Who is asking and when; every field optional. */
export interface ReportOptions {
  /** The current instant (default: `Date.now()`); decides "today" and `/live`. */
  now?: number | Date;
  /**
   * Restrict to the sites of one account (Cloud keys). A site of another
   * account is reported exactly like a missing one. Omit for Community keys,
   * which read every site of the installation.
   */
  accountId?: string;
  /** Restrict to one site (a shared link's): any other is reported exactly like a missing one. */
  siteId?: string;
}

/** Loads the site (404 when missing or not readable) and turns the query's dates into a `DayRange`. */
export async function resolveRange(storage: Storage, query: Pick<Query, 'siteId' | 'dates'>, options: ReportOptions = {}): Promise<{ site: Site; range: DayRange; now: number }> {
  const site = await readableSite(storage, query.siteId, options);
  const now = nowMs(options);
  let from: string;
  let to: string;
  if ('from' in query.dates) {
    ({ from, to } = query.dates);
  } else {
    to = localDay(now, site.timezone);
    from = shiftDay(to, 1 - PERIOD_DAYS[query.dates.period]);
  }
  return { site, range: dayRange(site, from, to), now };
}

/** What a report reads: the range, the compared range when asked for, and the compiled filters. */
export interface ResolvedQuery {
  site: Site;
  range: DayRange;
  /** The range of `query.compare`, when given. */
  compared: DayRange | undefined;
  /** The compiled `query.filters`, undefined when there are none. */
  selection: Selection | undefined;
  /** The query, for the imported-data plan (`importedPlan`). */
  query: Query;
  /** The site's imports of daily totals (none on a storage without `capabilities.imported`). */
  datasets: ImportedDataset[];
}

/**
 * `resolveRange` plus the compared range and the selection. Refuses a filtered
 * query on a storage that does not declare `capabilities.selection` (and `prop:` or
 * `goal` filters on one without `capabilities.properties` or `.goals`), rather than
 * answering it unfiltered. `goal` conditions are resolved against the site's goals.
 */
export async function resolveQuery(storage: Storage, query: Query, options: ReportOptions = {}): Promise<ResolvedQuery> {
  // The site's imports are asked for beside the site (a network round trip on some stores), not after it.
  const listed = storage.capabilities?.imported && storage.listImports ? storage.listImports(query.siteId) : Promise.resolve([]);
  listed.catch(() => {}); // awaited below; a missing site throws first
  const { site, range } = await resolveRange(storage, query, options);
  const datasets = await listed;
  if (query.filters.length > 0) requireCapability(storage, 'selection', 'filters');
  if (query.filters.some(([, dimension]) => isPropDimension(dimension))) requireCapability(storage, 'properties', 'prop: filters');
  const goals = query.filters.some(([, dimension]) => dimension === 'goal') ? await siteGoals(storage, site.id) : [];
  const selection = compileSelection(query.filters, goals);
  const days = query.compare && comparedDays(range.from, range.to, query.compare);
  return { site, range, compared: days && dayRange(site, days.from, days.to), selection, query, datasets };
}

/**
 * The imported-data plan of a report (imported/plan.ts): which imported rows it adds to its
 * native totals, and the body's `imported` field.
 */
export function importedPlan(storage: Storage, resolved: ResolvedQuery, read: ImportedRead): Promise<ImportedPlan> {
  return planImported(storage, resolved.query, resolved.site, resolved, resolved.datasets, read);
}

/**
 * The body with `imported` last when the plan has a note (a site with imported days in
 * range); the body itself otherwise, so other sites' bodies do not change by a byte.
 */
export function withNote<Body extends object>(body: Body, note: ImportedNote | undefined): Body {
  return note ? { ...body, imported: note } : body;
}

/** Throws `UnsupportedQueryError` unless the storage declares the capability (`what`: the feature, for the message). */
export function requireCapability(storage: Storage, capability: 'selection' | 'properties' | 'goals' | 'funnels', what: string): void {
  if (storage.capabilities?.[capability] !== true) {
    throw new UnsupportedQueryError(`The ${storage.kind} storage does not implement ${what} (Storage.capabilities.${capability}).`);
  }
}

/** The site's goals, from a storage that keeps them. */
export async function siteGoals(storage: Storage, siteId: string): Promise<Goal[]> {
  requireCapability(storage, 'goals', 'goals');
  if (!storage.listGoals) throw new UnsupportedQueryError(`The ${storage.kind} storage declares goals but has no listGoals.`);
  return storage.listGoals(siteId);
}

/** The `/stats` visitors of a range and selection: what `/goals` and `/funnels` rates are over. */
export function statsVisitors(storage: Storage, range: DayRange, selection: Selection | undefined): Promise<number> {
  return storage.summaryVisitors ? storage.summaryVisitors(range, selection) : storage.summary(range, selection).then((all) => all.visitors);
}

/**
 * Runs `read` over the range and, when there is one, the compared range, concurrently.
 */
export async function readBoth<T>(resolved: ResolvedQuery, read: (range: DayRange) => Promise<T>): Promise<[T, T | undefined]> {
  const { range, compared } = resolved;
  return Promise.all([read(range), compared ? read(compared) : undefined]);
}

function dayRange(site: Site, from: string, to: string): DayRange {
  return { siteId: site.id, from, to, startMs: dayStart(from, site.timezone), endMs: dayStart(shiftDay(to, 1), site.timezone) };
}

/** The site, if it exists, `options.accountId` (when given) owns it and it is `options.siteId` (when given). */
export async function readableSite(storage: Storage, siteId: string, options: ReportOptions = {}): Promise<Site> {
  if (options.siteId !== undefined && siteId !== options.siteId) throw new SiteNotFoundError();
  const site = await storage.getSite(siteId);
  if (!site || (options.accountId !== undefined && site.accountId !== options.accountId)) throw new SiteNotFoundError();
  return site;
}

export function nowMs(options: ReportOptions): number {
  const { now } = options;
  return now === undefined ? Date.now() : typeof now === 'number' ? now : now.getTime();
}
