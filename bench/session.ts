/** A harness Session against a running reference (the same wiring the suites get from global-setup). */
import { Session } from '../harness/context.js';
import type { SessionOptions } from '../harness/context.js';
import type { CallbackConfig, ReferenceInfo } from '../harness/target.js';
import { targetFromReference } from '../harness/target.js';

/** No receiver runs during the bench: the callback address is never contacted. */
const NO_CALLBACK: CallbackConfig = { host: '127.0.0.1', port: 9, publicUrl: 'http://127.0.0.1:9' };

export function benchSession(info: ReferenceInfo, options: SessionOptions = {}): Promise<Session> {
  return Session.create(targetFromReference(info, NO_CALLBACK), options);
}
