/** Demo and benchmark data: realistic, seeded traffic in the import format. */
export { generateDemoEvents, demoNdjson, seasonFactor, type DemoOptions, type DemoEvent } from './generate.js';
export { addDemoSite, DEMO_DAYS, DEMO_SITE, type AddDemoSiteOptions } from './demo-site.js';
export { mulberry32, type Rng } from './random.js';
export { DEMO_FUNNELS, DEMO_GOALS, EVENT_PROPS } from './catalog.js';
