/** Facts about a recorded delivery that the gateway and partner rules both read. */
import type { Delivery } from './types.js';

/** The delivery's body parses as JSON (the parse the receiver client made, else its raw bytes). */
export function parsesAsJson(d: Pick<Delivery, 'rawBody'> & { json?: unknown }): boolean {
  if (d.json !== undefined) return true;
  try {
    JSON.parse(d.rawBody.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}
