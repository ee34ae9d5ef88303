import { initialSchema } from './001-initial.js';
import { rollupSchema } from './002-rollups.js';
import { backendSchema } from './003-backend.js';
import { propertiesSchema } from './004-properties.js';
import { peopleSchema } from './005-people.js';
import { filterLayoutSchema } from './006-filter-layout.js';
import { attemptsSchema } from './007-people-attempts.js';
import { nameCountsSchema } from './008-name-counts.js';
import { customEventsSchema } from './009-custom-events.js';
import { peopleChangesSchema } from './010-people-changes.js';
import { importedSchema } from './011-imported.js';
import { sharingSchema } from './012-sharing.js';
import { funnelsSchema } from './013-funnels.js';
import { propertyCountsSchema } from './014-property-counts.js';
import { valuePagesSchema } from './015-value-pages.js';
import { valueBreakdownsSchema } from './016-value-breakdowns.js';
import { valueGoalsSchema } from './017-value-goals.js';
import { keySessionsSchema } from './018-key-sessions.js';
import type { MigrationStep } from './step.js';

/**
 * Every schema version in ascending order. Append a step to change the schema (a new table
 * is a new step); never edit or reorder a released one. A version may be missing for a
 * while (6 is issue 24's, allocated before it lands): `migrate()` runs every step a server
 * has not recorded, so a database at 7 still gets 6 when it arrives. Steps are independent
 * of the ones with a higher number that ran before them.
 *
 * @example
 * for (const step of MIGRATIONS) console.log(step.version, step.description);
 */
export const MIGRATIONS: readonly MigrationStep[] = [initialSchema, rollupSchema, backendSchema, propertiesSchema, peopleSchema, filterLayoutSchema, attemptsSchema, nameCountsSchema, customEventsSchema, peopleChangesSchema, importedSchema, sharingSchema, funnelsSchema, propertyCountsSchema, valuePagesSchema, valueBreakdownsSchema, valueGoalsSchema, keySessionsSchema];

/**
 * The schema version this package reads and writes (`migrate()` brings a
 * database to it; each server records its versions in `schema_migrations`).
 *
 * @example
 * const [row] = await (await client.query({ query: 'SELECT max(version) AS v FROM siteline.schema_migrations', format: 'JSONEachRow' })).json();
 * if (Number(row.v) < SCHEMA_VERSION) await storage.migrate();
 */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export type { MigrationContext, MigrationStep } from './step.js';
