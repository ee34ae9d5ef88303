/**
 * The `props` of a custom event (properties-goals.md section 1), read the same way by
 * `POST /collect`, the NDJSON import and the library: one definition of the limits, the
 * messages and what is stored.
 */
import { MAX_PROPERTIES, MAX_PROPERTY_KEY_LENGTH, MAX_PROPERTY_VALUE_LENGTH } from '../query/messages.js';
import type { PropEntry } from '../storage/types.js';
import { wellFormed } from './text.js';

/** The two rules a `props` field can break, worded as the spec words them. */
export const PROPS_MESSAGES = {
  shape: `The props field must be an object of at most ${MAX_PROPERTIES} properties.`,
  entry: `Each property needs a name of 1 to ${MAX_PROPERTY_KEY_LENGTH} characters and a string, number or boolean value of at most ${MAX_PROPERTY_VALUE_LENGTH} characters.`,
} as const;

export type PropsResult = { ok: true; props: PropEntry[] } | { ok: false; reason: string };

/**
 * Reads a `props` value: `undefined` or `null` is no properties; an object of at most 30
 * entries (counted as sent) whose keys have 1 to 300 characters and whose values are
 * strings of at most 2,000 characters, finite numbers or booleans. Numbers and booleans
 * are stored as `String()` writes them; an entry whose value is `null` or `''` is dropped
 * (an unset property). Keys and values are kept exactly (lone UTF-16 surrogates become
 * U+FFFD, as in every other stored text). Anything else is an error with the rule's message.
 *
 * @example parseProps({ plan: 'pro', seats: 3, trial: false, coupon: null })
 * // { ok: true, props: [['plan', 'pro'], ['seats', '3'], ['trial', 'false']] }
 */
export function parseProps(value: unknown): PropsResult {
  if (value === undefined || value === null) return { ok: true, props: [] };
  if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: PROPS_MESSAGES.shape };
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_PROPERTIES) return { ok: false, reason: PROPS_MESSAGES.shape };
  // Keys are distinct as sent; two that differ only in lone surrogates would meet after `wellFormed`: the later wins.
  const props = new Map<string, string>();
  for (const [key, raw] of entries) {
    if (key.length < 1 || key.length > MAX_PROPERTY_KEY_LENGTH) return { ok: false, reason: PROPS_MESSAGES.entry };
    if (raw === null || raw === '') continue;
    let text: string;
    if (typeof raw === 'string') text = raw;
    else if ((typeof raw === 'number' && Number.isFinite(raw)) || typeof raw === 'boolean') text = String(raw);
    else return { ok: false, reason: PROPS_MESSAGES.entry };
    if (text.length > MAX_PROPERTY_VALUE_LENGTH) return { ok: false, reason: PROPS_MESSAGES.entry };
    props.set(wellFormed(key), wellFormed(text));
  }
  return { ok: true, props: [...props] };
}
