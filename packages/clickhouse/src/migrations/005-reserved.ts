import type { MigrationStep } from './step.js';

/**
 * Version 5 belongs to issue 24 (filter layout), written on another branch. This
 * placeholder keeps `MIGRATIONS[i].version === i + 1` on this branch so that version 6 can
 * be tested; at the merge issue 24's step replaces this file and nothing else changes.
 * It does nothing, so a throw-away database migrated on this branch alone lacks issue 24's
 * change: never run this branch against a database that is kept.
 */
export const reservedSchema: MigrationStep = {
  version: 5,
  description: 'Reserved for issue 24 (placeholder on the issue 25 branch)',
  async up() {},
};
