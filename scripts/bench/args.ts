/**
 * The command line of a bench script: `node:util`'s parseArgs, plus `--help` (the options
 * and their defaults) and a one-line error for an unknown or malformed option instead of
 * a stack trace.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export function benchArgs<const T extends Options>(command: string, options: T) {
  const usage = () => [
    `usage: ${command} [options]`,
    ...Object.entries(options).map(([name, o]) => `  --${name}${o.type === 'string' ? ' <value>' : ''}${o.default !== undefined ? ` (default ${String(o.default)})` : ''}`),
  ].join('\n');
  try {
    const { values } = parseArgs({ options: { ...options, help: { type: 'boolean', default: false } }, strict: true, allowPositionals: false });
    if ((values as { help?: boolean }).help) {
      console.log(usage());
      process.exit(0);
    }
    return values as ReturnType<typeof parseArgs<{ options: T }>>['values'];
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage()}`);
    process.exit(2);
  }
}
