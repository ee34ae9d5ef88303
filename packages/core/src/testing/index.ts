/**
 * Test helpers for adapters: `testStorage()` runs the shared storage
 * conformance suite, `testBackend()` the backend one (accounts, keys, salts);
 * both need vitest. Import from `@siteline/core/testing`.
 */
export { testStorage, type TestStorageOptions } from './conformance.js';
export { testBackend, type TestBackendOptions } from './backend.js';
export { type CountRows, peopleCases } from './people.js';
export { sharingCases } from './sharing.js';
export { ALPHA, BETA, DELTA_FIRST, DELTA_SECOND, GAMMA_FIRST, GAMMA_SECOND, ndjson } from './datasets.js';
export { EXT, LEAP, HOURS, KOLKATA } from './datasets-extensions.js';
export { testStorageExtensions } from './conformance-extensions.js';
export { testExportRoundTrip, CLICKS } from './export-roundtrip.js';
export { PROPS, PROPS_GOALS } from './datasets-properties.js';
export { testStorageProperties } from './conformance-properties.js';
