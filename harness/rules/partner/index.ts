/** The partner rulebook, one module per section of partner-cashin-api.md. */
export * from './charges.js';
export * from './states.js';
export * from './list.js';
export * from './finance.js';
export * from './webhooks.js';
export * from './signature.js';
export * from './errors.js';
export * from './environments.js';
export * from './idempotency.js';
export * from './isolation.js';
export * from './state-matrix.js';
