import { initialSchema } from './001-initial.js';
import { rollupSchema } from './002-rollups.js';
import type { MigrationStep } from './step.js';

/**
 * Every schema version in order; `MIGRATIONS[i].version === i + 1`. Append a
 * step to change the schema (a new table is a new step); never edit or
 * reorder a released one.
 */
export const MIGRATIONS: readonly MigrationStep[] = [initialSchema, rollupSchema];

/** The schema version this package reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

export type { MigrationContext, MigrationStep } from './step.js';
