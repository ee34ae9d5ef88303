/** The `TabSeparated` bodies of the writer's inserts, and lists cut into parts for its look-ups. */

/** Lines per piece of a `TabSeparated` body. */
export const LINES_PER_PIECE = 5_000;

/**
 * A `TabSeparated` body built line by line, kept as pieces of a few thousand
 * joined lines (half a million separate lines alive at once cost more in
 * garbage collection than making them).
 */
export class TsvBody {
  readonly pieces: string[] = [];
  private lines: string[] = [];
  rows = 0;

  add(line: string): void {
    this.lines.push(line);
    this.rows++;
    if (this.lines.length >= LINES_PER_PIECE) this.cut();
  }

  /** The pieces, each ending in a newline. */
  done(): string[] {
    if (this.lines.length > 0) this.cut();
    return this.pieces;
  }

  private cut(): void {
    this.pieces.push(`${this.lines.join('\n')}\n`);
    this.lines = [];
  }
}

/**
 * The `TabSeparated` lines of `rows`, made a piece at a time as the insert reads
 * them: the body of a large import (hundreds of bytes an event) is never in
 * memory whole, only the pieces the request has not sent yet.
 */
export function* tsvPieces<T>(rows: readonly T[], line: (row: T) => string): Generator<string> {
  for (let start = 0; start < rows.length; start += LINES_PER_PIECE) {
    const lines: string[] = [];
    for (const row of rows.slice(start, start + LINES_PER_PIECE)) lines.push(line(row));
    yield `${lines.join('\n')}\n`;
  }
}
