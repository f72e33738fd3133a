/** Rules judging an integrator's webhook endpoint (the receiver target, suites/receiver/). */
export * from './observation.js';
export * from './acknowledgement.js';
export * from './signatures.js';
export * from './processing.js';
export * from './payloads.js';
export * from './duties.js';
