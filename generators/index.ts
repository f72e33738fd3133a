/** The suite's fast-check generators, one family per file. Suite-side only: never imports reference/. */
export * from './documents.js';
export * from './emails.js';
export * from './phones.js';
export * from './urls.js';
export * from './pix-keys.js';
export * from './amounts.js';
export * from './texts.js';
export * from './customers.js';
export * from './cards.js';
export * from './splits.js';
export * from './tracking.js';
export * from './idempotency.js';
export * from './bodies.js';
export * from './overrides.js';
export * from './rule-cases.js';
export * from './brcode-fields.js';
