/**
 * The endpoint acknowledges every documented event, quickly: "The receiver answers HTTP 2xx quickly
 * and processes asynchronously." (gateway) / "The receiver answers 2xx quickly and processes
 * asynchronously." and "10 s timeout per call" (partner). Bound for "quickly": QUICK_BOUND_MS (2 s).
 */
import { SCHEMES, duties, receiverCheck } from './support.js';

const LARGE_BYTES = 256 * 1024;

for (const scheme of SCHEMES) {
  receiverCheck(
    scheme,
    'every documented event type, correctly signed, is answered 2xx quickly',
    { id: 'events', rules: [duties(scheme).acknowledge, duties(scheme).answerQuickly], severity: 'critical' },
    async (r) => {
      for (const event of r.events) {
        const o = await r.deliverSigned(event, r.body(event, r.facts()));
        r.t.judge(r.duties.acknowledge, o);
        r.t.judge(r.duties.answerQuickly, o);
      }
    },
  );

  receiverCheck(
    scheme,
    'an event with unknown extra fields is accepted',
    { id: 'extra-fields', rules: [duties(scheme).acceptExtraFields] },
    async (r) => {
      const body = r.body(r.paidEvent, r.facts());
      const nested = scheme === 'gateway' ? body['transaction'] : body['data'];
      const extended = { ...body, api_version: '2026-11-01', livemode: false, metadata: { source: 'conformance' }, ...(typeof nested === 'object' && nested !== null && { [scheme === 'gateway' ? 'transaction' : 'data']: { ...nested, fee_cents: 12, tags: ['x'] } }) };
      const o = await r.deliverSigned(`${r.paidEvent} with extra fields`, extended);
      r.t.judge(r.duties.acceptExtraFields, o);
    },
  );

  receiverCheck(
    scheme,
    `a large (${LARGE_BYTES / 1024} KiB) event is accepted`,
    { id: 'large-body', rules: [duties(scheme).acceptLargeBodies], severity: 'minor' },
    async (r) => {
      const body = r.body(r.createdEvent, r.facts());
      const padding = 'x'.repeat(LARGE_BYTES - JSON.stringify(body).length - 20);
      const o = await r.deliverSigned(`${r.createdEvent} padded to ${LARGE_BYTES / 1024} KiB`, { ...body, padding });
      r.t.judge(r.duties.acceptLargeBodies, { ...o, bytes: LARGE_BYTES });
    },
  );
}
