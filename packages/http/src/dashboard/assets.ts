/**
 * The dashboard's static assets, held in memory with their gzipped form, served under
 * names that carry their content hash so browsers may cache them for good.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { DashboardBundle } from './bundle.js';

export interface Asset {
  /** Name in URLs, with the content hash: `app.3f9c0a1b2c3d4e5f.js`. */
  name: string;
  contentType: string;
  body: Buffer;
  gzipped: Buffer;
}

export interface DashboardAssets {
  script: Asset;
  style: Asset;
  icon: Asset;
}

/** A small mark for the tab, so the browser's automatic favicon request is answered from here too. */
const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d4ed8"/><path d="M6 22l6-7 5 4 9-11" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

function asset(stem: string, extension: string, contentType: string, text: string): Asset {
  const body = Buffer.from(text, 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { name: `${stem}.${hash}.${extension}`, contentType, body, gzipped: gzipSync(body, { level: 9 }) };
}

let loading: Promise<DashboardAssets> | undefined;

/**
 * The assets, loaded once per process: from dist/dashboard/ next to the built module, or,
 * when this module runs from its TypeScript source (tests, the bench), bundled now with
 * esbuild (a development dependency, imported by a computed specifier that the package
 * build does not follow).
 */
export function loadAssets(): Promise<DashboardAssets> {
  return (loading ??= (async () => {
    const here = import.meta.url;
    let bundle: DashboardBundle;
    if (here.endsWith('.ts')) {
      const { bundleDashboard } = (await import(new URL('./bundle.ts', here).href)) as typeof import('./bundle.js');
      bundle = await bundleDashboard(fileURLToPath(new URL('./app/', here)));
    } else {
      const read = (file: string) => readFile(fileURLToPath(new URL(`./dashboard/${file}`, here)), 'utf8');
      try {
        bundle = { script: await read('app.js'), style: await read('app.css') };
      } catch (error) {
        throw new Error(`The dashboard's assets are missing from the package (${(error as Error).message}); rebuild it with \`npm run build\`.`);
      }
    }
    return {
      script: asset('app', 'js', 'text/javascript; charset=utf-8', bundle.script),
      style: asset('app', 'css', 'text/css; charset=utf-8', bundle.style),
      icon: asset('icon', 'svg', 'image/svg+xml', ICON_SVG),
    };
  })());
}
