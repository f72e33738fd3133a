/** The shared fact layers of the rulebook (readers and the rules that own their rows), and `show`/`kindOf`. */
export * from './judgement.js';
export * from './emv.js';
export * from './qr.js';
export * from './money.js';
export * from './time.js';
export * from './status.js';
export * from './identifiers.js';
