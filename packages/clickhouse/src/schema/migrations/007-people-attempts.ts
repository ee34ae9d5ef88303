import type { TableSpec } from '../schema.js';
import { tablesStep } from './step.js';

/** Names of the tables of this step (people.ts). */
export type AttemptsTable = 'totp_steps' | 'sign_ins';

/**
 * Version 7 (issue 25, second part; version 6 is issue 24's, applied whenever it lands):
 * - `totp_steps`: a two-factor code accepted is a row (user, time step, a random use id);
 *   a code is accepted when its row is the only one of its step or a later one for the user
 *   (people.ts), so a code works once, whichever process sees it.
 * - `sign_ins`: every sign-in attempt the throttle counts, under a hash of the email (and
 *   client): failed 1, or 0 for a success that clears the count before it.
 * Sharded by user and by key. New tables only: the step is idempotent.
 */
const TABLES: (TableSpec & { name: AttemptsTable })[] = [
  {
    name: 'totp_steps',
    columns: 'user_id String, step UInt64, use_id String',
    engine: 'MergeTree() ORDER BY (user_id, step, use_id)',
    shardBy: 'sipHash64(user_id)',
  },
  {
    name: 'sign_ins',
    columns: 'key String, at_ms UInt64, failed UInt8, id String',
    engine: 'MergeTree() ORDER BY (key, at_ms, id)',
    shardBy: 'sipHash64(key)',
  },
];

export const attemptsSchema = tablesStep(7, 'Two-factor steps accepted, sign-in attempts (the throttle)', TABLES);
