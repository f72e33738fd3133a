/**
 * The endpoint acknowledges every documented event, quickly: "The receiver answers HTTP 2xx quickly
 * and processes asynchronously." (gateway) / "The receiver answers 2xx quickly and processes
 * asynchronously." and "10 s timeout per call" (partner). Bound for "quickly": QUICK_BOUND_MS (2 s).
 */
import { ensureAcknowledged, ensureExtraFieldsAccepted, judgeAnsweredQuickly, judgeLargeBodyAccepted } from '../../harness/rules/receiver/index.js';
import { SCHEMES, ids, receiverCheck } from './support.js';

const ACK = ids('GW-RCV-ACK-2XX', 'PT-RCV-ACK-2XX');
const QUICK = ids('GW-RCV-ACK-QUICK', 'PT-RCV-ACK-QUICK');
const EXTRA = ids('GW-RCV-EXTRA-FIELDS', 'PT-RCV-EXTRA-FIELDS');
const SIZE = ids('GW-RCV-BODY-SIZE', 'PT-RCV-BODY-SIZE');
const LARGE_BYTES = 256 * 1024;

for (const scheme of SCHEMES) {
  receiverCheck(
    scheme,
    'every documented event type, correctly signed, is answered 2xx quickly',
    { id: 'events', requirements: [ACK[scheme], QUICK[scheme]], severity: 'critical' },
    async (r) => {
      for (const event of r.events) {
        const o = await r.deliverSigned(event, r.body(event, r.facts()));
        r.t.run.record(ensureAcknowledged(o, scheme), judgeAnsweredQuickly(o, scheme));
      }
    },
  );

  receiverCheck(
    scheme,
    'an event with unknown extra fields is accepted',
    { id: 'extra-fields', requirements: [EXTRA[scheme]] },
    async (r) => {
      const body = r.body(r.paidEvent, r.facts());
      const nested = scheme === 'gateway' ? body['transaction'] : body['data'];
      const extended = { ...body, api_version: '2026-11-01', livemode: false, metadata: { source: 'conformance' }, ...(typeof nested === 'object' && nested !== null && { [scheme === 'gateway' ? 'transaction' : 'data']: { ...nested, fee_cents: 12, tags: ['x'] } }) };
      const o = await r.deliverSigned(`${r.paidEvent} with extra fields`, extended);
      r.t.run.record(ensureExtraFieldsAccepted(o, scheme));
    },
  );

  receiverCheck(
    scheme,
    `a large (${LARGE_BYTES / 1024} KiB) event is accepted`,
    { id: 'large-body', requirements: [SIZE[scheme]], severity: 'minor' },
    async (r) => {
      const body = r.body(r.createdEvent, r.facts());
      const padding = 'x'.repeat(LARGE_BYTES - JSON.stringify(body).length - 20);
      const o = await r.deliverSigned(`${r.createdEvent} padded to ${LARGE_BYTES / 1024} KiB`, { ...body, padding });
      r.t.run.record(judgeLargeBodyAccepted(o, scheme, LARGE_BYTES));
    },
  );
}
