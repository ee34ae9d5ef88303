/**
 * The Node.js lines the command runs on (package.json `engines`). On an older one the
 * SQLite driver's prebuilt binary crashes the process (a segmentation fault on Node 20):
 * say so before anything opens a database.
 */
export const MIN_NODE_MAJOR = 22;

/**
 * Why this Node.js cannot run the command, or undefined when it can.
 * @example nodeVersionProblem('v20.20.2') // 'Node.js 22 or later is needed; this is v20.20.2. …'
 */
export function nodeVersionProblem(version: string): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (major >= MIN_NODE_MAJOR) return undefined;
  return `Node.js ${MIN_NODE_MAJOR} or later is needed; this is ${version}. Install a current LTS line (24 or 22), then run npm install again.`;
}
