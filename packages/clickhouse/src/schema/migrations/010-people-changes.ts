import { sqlIdent, sqlString } from '../../connection/escape.js';
import { createTableStatements, onClusterClause, type TableSpec } from '../schema.js';
import type { MigrationStep } from './step.js';

/** Names of the tables of this step (people-users.ts). */
export type ChangesTable = 'user_changes' | 'recovery_uses';

/**
 * Version 10 (issue 35): changes to a user that never write back what they read.
 * - `user_changes`: one row per field a change sets (password hash, session epoch, role,
 *   removal, two-factor), with a `version`; a user reads as their `users` row with each
 *   field's newest change on top. A password change writes the hash and the epoch and
 *   nothing else, so a recovery code spent, a role or a removal meanwhile stays.
 * - `recovery_uses`: a recovery code spent is a row (user, code hash, a random use id); it
 *   is accepted when its row is the only one for that code, as a link's use is, so a code
 *   signs in at most once whichever process sees it.
 * - `web_sessions.user_epoch`: the user's session epoch the sign-in read; the session ends
 *   once the user's is higher. Existing rows get 0.
 * `sign_ins` is unchanged: an attempt is reserved as a failure row (`failed` 1) before its
 * password is checked, and released by a row with `failed` 2 and the same id. New tables,
 * and a column added only where `system.columns` lacks it: the step is idempotent.
 */
const TABLES: (TableSpec & { name: ChangesTable })[] = [
  {
    name: 'user_changes',
    columns: 'user_id String, field String, value String, version UInt64',
    engine: 'ReplacingMergeTree(version) ORDER BY (user_id, field)',
    shardBy: 'sipHash64(user_id)',
  },
  {
    name: 'recovery_uses',
    columns: 'user_id String, code_hash String, use_id String',
    engine: 'MergeTree() ORDER BY (user_id, code_hash, use_id)',
    shardBy: 'sipHash64(user_id)',
  },
];

export const peopleChangesSchema: MigrationStep = {
  version: 10,
  description: 'Narrow changes to users, recovery codes spent, the session epoch of a sign-in',
  async up(ctx) {
    const { target, onCluster } = ctx;
    for (const spec of TABLES) for (const sql of createTableStatements(target, spec, onCluster)) await ctx.ddl(sql);
    for (const table of target.cluster ? ['web_sessions_local', 'web_sessions'] : ['web_sessions']) {
      const have = await ctx.query<{ name: string }>(
        `SELECT name FROM system.columns WHERE database = ${sqlString(target.database)} AND table = ${sqlString(table)} AND name = 'user_epoch'`,
      );
      if (have.length > 0) continue;
      await ctx.ddl(`ALTER TABLE ${sqlIdent(target.database)}.${sqlIdent(table)}${onClusterClause(target, onCluster)} ADD COLUMN user_epoch UInt64 DEFAULT 0`);
    }
  },
};
