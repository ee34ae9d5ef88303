import { defineConfig } from 'tsup';

export default defineConfig({
  // `cli` is the `siteline` command (bin: dist/cli.js); its `#!/usr/bin/env node` line is kept from the source.
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
