import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // Inline core's response and parameter types so the published .d.ts needs no @siteline/core.
  dts: { resolve: ['@siteline/core'] },
  clean: true,
  sourcemap: true,
  target: 'node22',
});
