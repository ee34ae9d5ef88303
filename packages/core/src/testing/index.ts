/**
 * Test helpers for adapters: `testStorage()` runs the shared storage
 * conformance suite, `testBackend()` the backend one (accounts, keys, salts);
 * both need vitest. Import from `@siteline/core/testing`.
 */
export { testStorage, type TestStorageOptions } from './conformance.js';
export { testBackend, type TestBackendOptions } from './backend.js';
export { type CountRows, peopleCases, type PeopleCasesOptions } from './people.js';
export { sharingCases, type SharingCasesOptions } from './sharing.js';
export { ALPHA, BETA, DELTA_FIRST, DELTA_SECOND, GAMMA_FIRST, GAMMA_SECOND, ndjson } from './datasets.js';
export { EXT, LEAP, HOURS, KOLKATA } from './datasets-extensions.js';
export { testStorageExtensions } from './conformance-extensions.js';
export { testExportRoundTrip, CLICKS } from './export-roundtrip.js';
export { PROPS, PROPS_GOALS } from './datasets-properties.js';
export { testStorageProperties } from './conformance-properties.js';
export { FUNNEL, LATE_WRITES, PRICING_STEPS, REPEAT_STEPS, DOCS_STEPS, SAVED_FUNNELS } from './datasets-funnels.js';
export { testStorageFunnels } from './conformance-funnels.js';
export { testStorageImported } from './conformance-imported.js';
export { PLAUSIBLE_EXPORT, PLAUSIBLE_LEGACY, PLAUSIBLE_NATIVE } from './datasets-plausible.js';
export { storedZip } from './zip.js';
export { testStorageConverters } from './conformance-converters.js';
export { GA4_EXPORT, GA4_ROWS, UMAMI_EVENTS, UMAMI_EVENT_DATA, UMAMI_SPLIT } from './datasets-converters.js';
