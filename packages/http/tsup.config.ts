import { defineConfig } from 'tsup';

export default defineConfig({
  // `cli` is the `siteline` command (bin: dist/cli.js); its `#!/usr/bin/env node` line is kept from the source.
  // `collect-worker` runs on the collector's worker thread; collect-thread.ts finds it next to itself in dist/.
  entry: { index: 'src/index.ts', cli: 'src/cli.ts', 'collect-worker': 'src/collect/collect-worker.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // `import.meta.url` in the CommonJS build too (collect-thread.ts locates the worker by it).
  shims: true,
});
