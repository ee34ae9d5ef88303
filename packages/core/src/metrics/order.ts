/**
 * Row ordering of decisions.md section 4: metrics descending in the order
 * they appear in the row, then name fields ascending in byte order, so equal
 * data always gives equal JSON.
 */

/** Byte-order comparison of UTF-8 strings (code point order == UTF-8 byte order). */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const ca = ia.next();
    const cb = ib.next();
    if (ca.done) return cb.done ? 0 : -1;
    if (cb.done) return 1;
    const d = ca.value.codePointAt(0)! - cb.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

/**
 * Sorts rows by `metrics` descending, then `names` ascending (byte order).
 * @example sortRows(rows, ['visitors', 'sessions'], ['source'])
 */
export function sortRows<T>(rows: T[], metrics: readonly (keyof T)[], names: readonly (keyof T)[]): T[] {
  return rows.sort((a, b) => {
    for (const m of metrics) {
      const d = (b[m] as number) - (a[m] as number);
      if (d !== 0) return d;
    }
    for (const n of names) {
      const d = compareBytes(a[n] as string, b[n] as string);
      if (d !== 0) return d;
    }
    return 0;
  });
}
