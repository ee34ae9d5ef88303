/** Whether a SQLite path names a file another connection can open (not an in-memory database). */
export function isSqliteFile(path: string): boolean {
  return path !== '' && path !== ':memory:' && !path.startsWith('file::memory:') && !/[?&]mode=memory/.test(path);
}
