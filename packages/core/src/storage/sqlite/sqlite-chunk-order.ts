/**
 * Record order in a chunk (sqlite-chunk-builder.ts): a session's events in the order they were
 * recorded, by `(ts, seq)` (funnels.md section 2), which the raw rows' key `(ts, id)` gives
 * except where two events of one time arrived in another order than their `seq`s. The day's
 * events are read by key and laid out by visitor; these put each visitor's (and each outside
 * session's) events in record order, and mark the events that share `ts` and `seq` with the
 * one before them in their session (no chain of a funnel takes both).
 */

/**
 * The permutation that sorts each run `[bounds[r], bounds[r + 1])` of events by `(ts, seq)`,
 * keeping the order of equal keys (`perm[at]` is the event that goes to `at`); undefined when
 * every run is in that order already (nearly always: a tie of `ts` read out of `seq` order).
 * @example recordOrderOf(Int32Array.of(0, 2), Float64Array.of(5, 5), Float64Array.of(2, 1)) // Int32Array [1, 0]
 */
export function recordOrderOf(bounds: Int32Array, ts: Float64Array, seq: Float64Array): Int32Array | undefined {
  let perm: Int32Array | undefined;
  for (let r = 0; r + 1 < bounds.length; r++) {
    const from = bounds[r]!;
    const to = bounds[r + 1]!;
    let ordered = true;
    for (let i = from + 1; i < to && ordered; i++) ordered = ts[i - 1]! < ts[i]! || (ts[i - 1] === ts[i] && seq[i - 1]! <= seq[i]!);
    if (ordered) continue;
    perm ??= Int32Array.from({ length: ts.length }, (_, i) => i);
    const run = Array.from({ length: to - from }, (_, k) => from + k).sort((a, b) => ts[a]! - ts[b]! || seq[a]! - seq[b]! || a - b);
    perm.set(run, from);
  }
  return perm;
}

/** `values` reordered by `perm` (`perm[at]` is the index whose value goes to `at`), in place. */
export function permute<T extends Int32Array | Float64Array | Uint8Array>(values: T, perm: Int32Array): T {
  const copy = values.slice();
  for (let at = 0; at < perm.length; at++) values[at] = copy[perm[at]!]!;
  return values;
}

/**
 * The positions, ascending, of the events (in record order within each session) whose `ts` and
 * `seq` equal those of the event before them in the same session; `sessions` bounds the session
 * indexes. Almost always empty: the collector and the import give every event its own `seq`.
 * @example sameKeyPositions(Int32Array.of(0, 1, 0), Float64Array.of(5, 5, 5), Float64Array.of(1, 1, 1), 2) // Int32Array [2]
 */
export function sameKeyPositions(session: Int32Array, ts: Float64Array, seq: Float64Array, sessions: number): Int32Array {
  const lastTs = new Float64Array(sessions).fill(Number.NaN);
  const lastSeq = new Float64Array(sessions);
  const found: number[] = [];
  for (let i = 0; i < session.length; i++) {
    const s = session[i]!;
    if (lastTs[s] === ts[i] && lastSeq[s] === seq[i]) found.push(i);
    lastTs[s] = ts[i]!;
    lastSeq[s] = seq[i]!;
  }
  return Int32Array.from(found);
}
