/**
 * Partner webhook redelivery (timer tier). partner-cashin-api.md "Events": "Redelivery: up to 8
 * attempts per event, exponential backoff doubling per attempt with a cap of 5 minutes, 10 s timeout
 * per call."; "The same event id can arrive more than once". "Authentication" 4: 300 s tolerance.
 *
 * Isolation: `/partner` is shared by every partner check running in parallel, so the receiver is
 * scripted to fail ONLY deliveries whose body carries this check's unique external_ref token
 * (`bodyContains`, harness/webhooks/receiver.ts); everyone else's events are answered 200 as usual.
 * Waits are derived from the gaps the target shows; a missing redelivery is only concluded after
 * the cap plus the call timeout (and slack) has passed. Both are the contract's 5 min / 10 s unless
 * the operator declares the target's timers compressed (PAYGATE_PARTNER_RETRY_CAP_MS /
 * PAYGATE_PARTNER_DELIVERY_TIMEOUT_MS, harness/webhooks/redelivery-timers.ts), which makes the run
 * short and lets a sandbox's uncapped backoff show within it.
 */
import { check } from '../../harness/run/check.js';
import { makeFinding, show } from '../../harness/rules/index.js';
import type { Delivery } from '../../harness/webhooks/types.js';
import { gapSlackMs, redeliveryTimers } from '../../harness/webhooks/redelivery-timers.js';
import { chargeBody, ctxOf, eventMatcher, eventOf, mustCreate, PARTNER_WEBHOOK_PATH, refToken, signatureFindings, webhookSecret, WEBHOOK_WAIT_MS } from './support.js';

const AREA = 'Webhooks';
const MAX_ATTEMPTS = 8;
const TIMERS = redeliveryTimers();
const CAP_MS = TIMERS.capMs;
const CALL_TIMEOUT_MS = TIMERS.callTimeoutMs;
const SLACK_MS = gapSlackMs(TIMERS);
/** The longest a conforming service can leave between two attempts (a call that hangs until its timeout, then the capped backoff). */
const LONGEST_GAP_MS = CAP_MS + CALL_TIMEOUT_MS + SLACK_MS;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

check('a failed delivery is redelivered with the same event id, doubling gaps, at most 8 attempts', {
  id: 'partner.webhooks.redelivery',
  api: 'partner',
  area: AREA,
  tier: 'timer',
  // the first attempt, then up to 8 more gaps each as long as a conforming service may take
  timeoutMs: WEBHOOK_WAIT_MS + (MAX_ATTEMPTS + 1) * LONGEST_GAP_MS + 60_000,
  needs: ['partner.webhooks'],
  requirements: ['PT-WH-REDELIVERY-RETRIES', 'PT-WH-REDELIVERY-ATTEMPTS', 'PT-WH-EVENT-ID-STABLE', 'PT-WH-BACKOFF', 'PT-WH-BACKOFF-CAP', 'PT-WH-REDELIVERY-FRESH-T', 'PT-WH-SIGNATURE'],
}, async (t) => {
  const secret = webhookSecret(t);
  const receiver = t.receiver();
  const body = chargeBody('wh-redelivery');
  const token = refToken(body.external_ref!);
  // every allowed attempt fails, so the service must use them all (and no more)
  await receiver.script(PARTNER_WEBHOOK_PATH, { failFirst: MAX_ATTEMPTS + 4, status: 500, bodyContains: token });
  const seen: Delivery[] = [];
  let concludedMissing = false;
  try {
    await mustCreate(t, body);
    const matcher = eventMatcher(body.external_ref!, 'business.pix.created');
    const first = await receiver.waitFor(matcher, { path: PARTNER_WEBHOOK_PATH, timeoutMs: WEBHOOK_WAIT_MS });
    if (!first) {
      t.run.record(makeFinding(ctxOf(['PT-WH-STATE-CHANGE', 'PT-EVT-CREATED']), { code: 'webhook.missing', title: 'no business.pix.created event arrived', severity: 'failure', expected: 'a first delivery attempt', actual: `nothing within ${WEBHOOK_WAIT_MS / 1000} s` }));
      return;
    }
    seen.push(first);
    for (;;) {
      const last = seen[seen.length - 1]!;
      const lastGap = seen.length >= 2 ? last.receivedAt - seen[seen.length - 2]!.receivedAt : undefined;
      // Before the 8th attempt: wait as long as a conforming service may take (cap + timeout).
      // After it: look for a 9th where a doubling schedule would put it (a later one goes unseen).
      const timeoutMs = seen.length < MAX_ATTEMPTS ? LONGEST_GAP_MS : Math.min(LONGEST_GAP_MS, 2.5 * (lastGap ?? CAP_MS) + 2_000);
      const next = await receiver.waitFor(matcher, { path: PARTNER_WEBHOOK_PATH, afterSeq: last.seq, timeoutMs });
      if (!next) {
        concludedMissing = seen.length < MAX_ATTEMPTS;
        break;
      }
      seen.push(next);
      if (seen.length > MAX_ATTEMPTS + 3) break;
    }
  } finally {
    await receiver.clearScript(PARTNER_WEBHOOK_PATH, token);
  }

  const times = seen.map((d) => d.receivedAt);
  const gaps = times.slice(1).map((at, i) => at - times[i]!);
  t.run.note(`${seen.length} attempt(s); gaps ${gaps.map((g) => `${g} ms`).join(', ') || 'none'}; answered ${seen.map((d) => d.answeredStatus).join(', ')}`);

  if (concludedMissing) {
    // A failed delivery that is never retried breaks "Redelivery" outright: a failure. Stopping
    // after a few retries is a warning, as "up to 8 attempts" does not promise that all are used.
    const never = seen.length === 1;
    t.run.record(makeFinding(ctxOf(['PT-WH-REDELIVERY-RETRIES']), {
      code: 'webhook.no-redelivery',
      title: never ? 'a failed delivery was never retried' : `a failing event was attempted only ${seen.length} times`,
      severity: never ? 'failure' : 'warning',
      expected: `redelivery while the receiver answers 500, up to ${MAX_ATTEMPTS} attempts, gaps at most the ${CAP_MS / 1000} s cap`,
      actual: `${seen.length} attempt(s), none for ${LONGEST_GAP_MS / 1000} s after the last`,
    }));
  }
  if (seen.length > MAX_ATTEMPTS) {
    t.run.record(makeFinding(ctxOf(['PT-WH-REDELIVERY-ATTEMPTS']), { code: 'webhook.too-many-attempts', title: 'a failing event was attempted more than 8 times', severity: 'failure', expected: `at most ${MAX_ATTEMPTS} attempts`, actual: `${seen.length} attempts` }));
  }
  const ids = [...new Set(seen.map((d) => eventOf(d)?.id))];
  if (ids.length > 1) {
    t.run.record(makeFinding(ctxOf(['PT-WH-EVENT-ID-STABLE']), { code: 'webhook.redelivery-new-id', title: 'redeliveries of one event carry different event ids', severity: 'failure', expected: 'the same event id on every attempt ("The same event id can arrive more than once")', actual: `ids ${show(ids)}` }));
  }
  // Backoff: "doubling per attempt", first gap and jitter not shown → judged by the median ratio
  // of consecutive uncapped gaps, with tolerance.
  const ratios: number[] = [];
  for (let i = 1; i < gaps.length; i++) if (gaps[i]! < CAP_MS * 0.9) ratios.push(gaps[i]! / gaps[i - 1]!);
  if (ratios.length >= 2) {
    const m = median(ratios);
    if (m < 1.5 || m > 2.8) {
      t.run.record(makeFinding(ctxOf(['PT-WH-BACKOFF']), { code: 'webhook.backoff', title: 'redelivery gaps do not double', severity: 'failure', expected: 'each gap about twice the previous one (median ratio 1.5–2.8)', actual: `gaps ${gaps.join(', ')} ms, median ratio ${m.toFixed(2)}` }));
    }
  } else t.run.note('too few gaps to judge the backoff');
  // The receiver answers at once, so a gap is the backoff alone (the call timeout is not spent).
  const longest = Math.max(0, ...gaps);
  if (longest > CAP_MS + SLACK_MS) {
    t.run.record(makeFinding(ctxOf(['PT-WH-BACKOFF-CAP']), { code: 'webhook.backoff-cap', title: `a redelivery gap exceeds the ${TIMERS.compressed ? 'configured' : '5-minute'} cap`, severity: 'failure', expected: `gaps of at most ${CAP_MS} ms${TIMERS.compressed ? ' (PAYGATE_PARTNER_RETRY_CAP_MS; the contract says 5 minutes)' : ''}, ${SLACK_MS} ms tolerance`, actual: `${longest} ms (gaps ${gaps.join(', ')} ms)` }));
  }
  // Each attempt must verify; a redelivery signed with its first t may fall outside 300 s (warning).
  for (const d of seen.slice(1)) t.run.record(signatureFindings(d, secret, { toleranceRequirement: 'PT-WH-REDELIVERY-FRESH-T' }));
  if (seen[0]) t.run.record(signatureFindings(seen[0], secret));
});

// "10 s timeout per call": a receiver that answers 5 s after the timeout has not answered in time, so
// the attempt counts as failed and the event is delivered again. How the service treats a late 200
// is not spelled out beyond the timeout, so a missing retry is a warning.
check('a delivery answered after more than 10 s is treated as failed and redelivered', {
  id: 'partner.webhooks.call-timeout',
  api: 'partner',
  area: AREA,
  tier: 'timer',
  timeoutMs: 2 * WEBHOOK_WAIT_MS + CALL_TIMEOUT_MS + LONGEST_GAP_MS + 60_000,
  needs: ['partner.webhooks'],
  requirements: ['PT-WH-TIMEOUT', 'PT-WH-EVENT-ID-STABLE'],
}, async (t) => {
  webhookSecret(t);
  const receiver = t.receiver();
  const body = chargeBody('wh-timeout');
  const token = refToken(body.external_ref!);
  await receiver.script(PARTNER_WEBHOOK_PATH, { failFirst: 1, status: 200, delayMs: CALL_TIMEOUT_MS + 5_000, bodyContains: token });
  try {
    await mustCreate(t, body);
    const matcher = eventMatcher(body.external_ref!, 'business.pix.created');
    const found = await receiver.waitForCount(matcher, 2, { path: PARTNER_WEBHOOK_PATH, timeoutMs: WEBHOOK_WAIT_MS + CALL_TIMEOUT_MS + LONGEST_GAP_MS });
    t.run.note(`${found.length} delivery(ies) of the created event${found.length === 2 ? `, ${found[1]!.receivedAt - found[0]!.receivedAt} ms apart` : ''}`);
    if (found.length < 2) {
      t.run.record(makeFinding(ctxOf(['PT-WH-TIMEOUT']), { code: 'webhook.no-timeout', title: `a delivery answered after ${(CALL_TIMEOUT_MS + 5_000) / 1000} s was not retried`, severity: 'warning', expected: `the call aborted after ${CALL_TIMEOUT_MS / 1000} s and the event redelivered`, actual: `${found.length} delivery(ies)` }));
    } else if (eventOf(found[0]!)?.id !== eventOf(found[1]!)?.id) {
      t.run.record(makeFinding(ctxOf(['PT-WH-EVENT-ID-STABLE']), { code: 'webhook.redelivery-new-id', title: 'the redelivery carries another event id', severity: 'failure', expected: 'the same event id', actual: show([eventOf(found[0]!)?.id, eventOf(found[1]!)?.id]) }));
    }
  } finally {
    await receiver.clearScript(PARTNER_WEBHOOK_PATH, token);
  }
});
