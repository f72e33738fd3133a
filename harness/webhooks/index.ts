/** The webhook side of the suite: one receiver per run, a client for workers, signatures, dedupe. */
export * from './types.js';
export * from './receiver.js';
export * from './receiver-client.js';
export * from './signatures.js';
export * from './dedupe.js';
