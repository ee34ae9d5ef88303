/**
 * CSV records of a stream (csv-parse: RFC 4180 quoting, streamed, a record in memory at a
 * time), each with the line it starts on, and the raw bytes fed to a hash on the way.
 */
import type { Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';

/** One record: its fields and the 1-based line of the file it starts on. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** Longest field accepted, in characters: past it a file is malformed rather than data. */
const MAX_FIELD = 65_536;

/**
 * The records of a CSV stream (the header included, as the first), empty lines skipped, a
 * byte order mark removed. Every byte read also goes into `hash` when given.
 * @example for await (const { line, fields } of csvRecords(createReadStream('pages.csv'))) console.log(line, fields);
 */
export async function* csvRecords(input: Readable, hash?: Hash): AsyncGenerator<CsvRecord> {
  if (hash) input.on('data', (chunk: Buffer) => hash.update(chunk));
  const parser = input.pipe(parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_FIELD * 64 }));
  input.on('error', (error) => parser.destroy(error));
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number; records: number } }>) {
    // `info.lines` is the line the record ends on; a record with quoted newlines starts earlier.
    yield { line: info.lines - countNewlines(record), fields: record };
  }
}

function countNewlines(fields: readonly string[]): number {
  let n = 0;
  for (const f of fields) for (let i = f.indexOf('\n'); i >= 0; i = f.indexOf('\n', i + 1)) n++;
  return n;
}

/** Column positions by header name, and the names a file must have that it lacks. */
export function headerIndex(header: readonly string[], required: readonly string[]): { index: Map<string, number>; missing: string[] } {
  const index = new Map(header.map((name, i) => [name.trim(), i]));
  return { index, missing: required.filter((name) => !index.has(name)) };
}
