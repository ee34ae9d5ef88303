/**
 * The files of an export, read as streams: the entries of a zip archive (yauzl: reads the
 * central directory, then inflates one entry at a time, so memory does not grow with the
 * archive), the CSV files of a directory, or one file.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

/** One file of an export: its name (without folders) and a way to read it. */
export interface ExportFile {
  name: string;
  open(): Promise<Readable>;
}

/** Whether a path is a zip archive (by its first bytes, not its name). */
async function isZip(path: string): Promise<boolean> {
  const stream = createReadStream(path, { start: 0, end: 3 });
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const head = Buffer.concat(chunks);
  return head.length === 4 && head.readUInt32LE(0) === 0x04034b50;
}

/**
 * The files of `path`: a zip's entries (folders and macOS `__MACOSX` copies left out), a
 * directory's files, or the file itself; in name order.
 * @example for (const file of await exportFiles('export.zip')) console.log(file.name);
 */
export async function exportFiles(path: string): Promise<{ files: ExportFile[]; close(): void }> {
  const stat = statSync(path);
  if (stat.isDirectory()) {
    const files = readdirSync(path).filter((n) => !n.startsWith('.') && statSync(join(path, n)).isFile()).sort();
    return { files: files.map((name) => ({ name, open: async () => createReadStream(join(path, name)) })), close: () => {} };
  }
  if (!(await isZip(path))) return { files: [{ name: basename(path), open: async () => createReadStream(path) }], close: () => {} };
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, file) => (error ? reject(error) : resolve(file!))),
  );
  const entries = await new Promise<yauzl.Entry[]>((resolve, reject) => {
    const found: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      found.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(found));
    zip.on('error', reject);
    zip.readEntry();
  });
  const files = entries
    .filter((e) => !e.fileName.endsWith('/') && !e.fileName.startsWith('__MACOSX/') && !basename(e.fileName).startsWith('.'))
    .sort((a, b) => (basename(a.fileName) < basename(b.fileName) ? -1 : 1))
    .map((entry) => ({
      name: basename(entry.fileName),
      open: () => new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream!)))),
    }));
  return { files, close: () => zip.close() };
}
