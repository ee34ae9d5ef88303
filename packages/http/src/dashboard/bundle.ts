/**
 * The dashboard's browser code, bundled by esbuild: at build time into dist/dashboard/ (tsup's
 * `onSuccess`), and on first use when the server runs from its TypeScript sources (tests).
 * Only those two load this module, so esbuild is a development dependency, never one of the
 * published package.
 */
import { join } from 'node:path';
import { build } from 'esbuild';

/** What the browser loads besides the page: one script, one stylesheet. */
export interface DashboardBundle {
  script: string;
  style: string;
}

/** File names of the bundle in dist/dashboard/. */
export const BUNDLE_FILES = { script: 'app.js', style: 'app.css' } as const;

/**
 * Bundles `app/main.tsx` in `appDir` (with the CSS it imports), minified, for browsers of
 * the last few years (ES2020 modules).
 * @example const { script, style } = await bundleDashboard(fileURLToPath(new URL('./app/', import.meta.url)));
 */
export async function bundleDashboard(appDir: string): Promise<DashboardBundle> {
  const result = await build({
    entryPoints: [join(appDir, 'main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    write: false,
    outdir: 'out',
    entryNames: 'app',
    logLevel: 'silent',
    legalComments: 'none',
    banner: { js: '/*! Siteline dashboard (MIT). Includes Preact (MIT License, https://preactjs.com). */' },
  });
  const text = (extension: string) => {
    const file = result.outputFiles.find((f) => f.path.endsWith(extension));
    if (!file) throw new Error(`esbuild produced no ${extension} file for the dashboard.`);
    return file.text;
  };
  return { script: text('.js'), style: text('.css') };
}
