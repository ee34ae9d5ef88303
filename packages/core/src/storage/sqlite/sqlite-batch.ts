import type Database from 'better-sqlite3';

/**
 * Multi-row INSERT: rows are buffered and sent `rowsPerStatement` at a time,
 * which saves most of the per-statement cost of a bulk import. With `order`,
 * rows wait for `flush` and go in that order, so a b-tree is filled by appends.
 */
export function batchInsert(db: Database.Database, table: string, columns: readonly string[], rowsPerStatement: number, order?: (a: unknown[], b: unknown[]) => number) {
  const row = `(${columns.map(() => '?').join(', ')})`;
  const sql = (rows: number) => `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array(rows).fill(row).join(', ')}`;
  const full = db.prepare(sql(rowsPerStatement));
  const single = db.prepare(sql(1));
  let rows: unknown[][] = [];
  const send = () => {
    if (order) rows.sort(order);
    let i = 0;
    for (; i + rowsPerStatement <= rows.length; i += rowsPerStatement) full.run(rows.slice(i, i + rowsPerStatement).flat());
    for (; i < rows.length; i++) single.run(rows[i]);
    rows = [];
  };
  return {
    add(values: unknown[]) {
      rows.push(values);
      if (!order && rows.length === rowsPerStatement) send();
    },
    flush: send,
    /** Drops rows not sent yet (those of a write that failed: its transaction was rolled back). */
    clear() {
      rows = [];
    },
  };
}
