/** A harness Session against a running reference (the same wiring the suites get from global-setup). */
import { Session } from '../harness/run/session.js';
import type { SessionOptions } from '../harness/run/session.js';
import type { CallbackConfig, ReferenceInfo } from '../harness/config/target.js';
import { targetFromReference } from '../harness/config/target.js';

/** No receiver runs during the bench: the callback address is never contacted. */
const NO_CALLBACK: CallbackConfig = { host: '127.0.0.1', port: 9, publicUrl: 'http://127.0.0.1:9' };

export function benchSession(info: ReferenceInfo, options: SessionOptions = {}): Promise<Session> {
  return Session.create(targetFromReference(info, NO_CALLBACK), options);
}
