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
import type { Delivery } from '../../harness/webhooks/types.js';
import { gapSlackMs, redeliveryTimers, redeliveryToleranceMs } from '../../harness/webhooks/redelivery-timers.js';
import { judgeEventArrival, judgeRedeliveries, judgeTimedOutDelivery, MAX_ATTEMPTS, partnerDeliverySignature, serviceClockOffsetMs, signPartnerWebhooks } from '../../harness/rules/partner/index.js';
import { chargeBody, eventMatcher, mustCreate, PARTNER_WEBHOOK_PATH, refToken, sameEventStream, waitForEvent, webhookSecret, WEBHOOK_WAIT_MS } from './support.js';

const AREA = 'Webhooks';
const TIMERS = redeliveryTimers();
const CAP_MS = TIMERS.capMs;
const CALL_TIMEOUT_MS = TIMERS.callTimeoutMs;
const SLACK_MS = gapSlackMs(TIMERS);
/** The longest a conforming service can leave between two attempts (a call that hangs until its timeout, then the capped backoff). */
const LONGEST_GAP_MS = CAP_MS + CALL_TIMEOUT_MS + SLACK_MS;

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
  let offset: number | undefined;
  try {
    const created = await mustCreate(t, body);
    offset = serviceClockOffsetMs(created.response.exchange, created.charge.created_at);
    const first = await waitForEvent(receiver, body.external_ref!, 'business.pix.created', WEBHOOK_WAIT_MS);
    if (!first) {
      t.run.record(judgeEventArrival(undefined, { requirements: ['PT-WH-STATE-CHANGE', 'PT-EVT-CREATED'], type: 'business.pix.created', ref: body.external_ref!, waitedMs: WEBHOOK_WAIT_MS }));
      return;
    }
    seen.push(first);
    // the attempts of this event: its type as first seen (an alias event under another name is another stream)
    const matcher = sameEventStream(first, eventMatcher(body.external_ref!, 'business.pix.created'));
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

  t.run.record(judgeRedeliveries({ attempts: seen, concludedMissing, capMs: CAP_MS, slackMs: SLACK_MS, longestGapMs: LONGEST_GAP_MS, compressed: TIMERS.compressed }));
  // Each attempt must verify; a redelivery signed with its first t may fall outside 300 s (PT-WH-REDELIVERY-FRESH-T),
  // a tolerance compressed with the timers when they are (the cap equals the tolerance: a capped gap shows it)
  const fresh = { redelivery: true, redeliveryToleranceMs: redeliveryToleranceMs(TIMERS), ...(offset !== undefined && { clockOffsetMs: offset }) };
  for (const d of seen.slice(1)) t.run.judge(signPartnerWebhooks, partnerDeliverySignature(d, secret, fresh));
  if (seen[0]) t.run.judge(signPartnerWebhooks, partnerDeliverySignature(seen[0], secret, offset === undefined ? {} : { clockOffsetMs: offset }));
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
    const deadline = Date.now() + WEBHOOK_WAIT_MS + CALL_TIMEOUT_MS + LONGEST_GAP_MS;
    const first = await waitForEvent(receiver, body.external_ref!, 'business.pix.created', WEBHOOK_WAIT_MS + CALL_TIMEOUT_MS + LONGEST_GAP_MS);
    // the second attempt of the same event (same type string; an alias event is another stream)
    const again = first ? await receiver.waitFor(sameEventStream(first, eventMatcher(body.external_ref!, 'business.pix.created')), { path: PARTNER_WEBHOOK_PATH, afterSeq: first.seq, timeoutMs: Math.max(0, deadline - Date.now()) }) : undefined;
    const found = [first, again].filter((d): d is Delivery => d !== undefined);
    t.run.note(`${found.length} delivery(ies) of the created event${found.length === 2 ? `, ${found[1]!.receivedAt - found[0]!.receivedAt} ms apart` : ''}`);
    t.run.record(judgeTimedOutDelivery(found, { answeredAfterMs: CALL_TIMEOUT_MS + 5_000, timeoutMs: CALL_TIMEOUT_MS }));
  } finally {
    await receiver.clearScript(PARTNER_WEBHOOK_PATH, token);
  }
});
