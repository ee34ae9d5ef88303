import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'tsup';
import { BUNDLE_FILES, bundleDashboard } from './src/dashboard/bundle.js';

export default defineConfig({
  // `cli` is the `siteline` command (bin: dist/cli.js); its `#!/usr/bin/env node` line is kept from the source.
  // `collect-worker` runs on the collector's worker thread; collect-thread.ts finds it next to itself in dist/.
  entry: { index: 'src/index.ts', cli: 'src/cli.ts', 'collect-worker': 'src/collect/collect-worker.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node22',
  // `import.meta.url` in the CommonJS build too (collect-thread.ts locates the worker by it).
  shims: true,
  // The dashboard's browser code, bundled next to the modules that serve it (dashboard/assets.ts reads dist/dashboard/).
  async onSuccess() {
    const bundle = await bundleDashboard(join(import.meta.dirname, 'src/dashboard/app'));
    mkdirSync(join(import.meta.dirname, 'dist/dashboard'), { recursive: true });
    writeFileSync(join(import.meta.dirname, 'dist/dashboard', BUNDLE_FILES.script), bundle.script);
    writeFileSync(join(import.meta.dirname, 'dist/dashboard', BUNDLE_FILES.style), bundle.style);
  },
});
