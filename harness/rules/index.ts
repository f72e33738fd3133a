/** The checks library: small pure functions `(observation, ctx) → Finding | undefined`. */
export * from './judgement.js';
export * from './emv.js';
export * from './qr.js';
export * from './money.js';
export * from './time.js';
export * from './errors.js';
export * from './status.js';
export * from './identifiers.js';
