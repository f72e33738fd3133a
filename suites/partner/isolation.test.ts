/**
 * What sits behind the lookups stays within its account and environment. partner-cashin-api.md
 * "What the service does": "Sandbox and production share the same address; the key prefix decides
 * the environment. Their data is independent."; "Errors": "404 | resource not found or belongs to
 * another account"; "Idempotency: same key and same body returns the original response"; "Events":
 * "During the pilot the webhook URL is registered with the integration team".
 *
 * keys-environments.test.ts proves lookups and lists apart; an implementation can still share an
 * idempotency cache keyed by the key alone, a ledger keyed by account or environment only, or a
 * dispatcher that sends every event to the registered URL (issue 15). One flow per boundary serves
 * boundary rule (keepAccountsApart, keepEnvironmentsApart): our charge is created with a key, the other
 * side reuses the key with the same body and creates a charge of its own; ours is paid; their
 * statement must not show our capture and our endpoint must not receive their event.
 */
import { randomUUID } from 'node:crypto';
import { check } from '../../harness/run/check.js';
import type { CheckTools } from '../../harness/run/check.js';
import type { PartnerKeyName } from '../../harness/http/auth.js';
import type { BeyondLookups } from '../../harness/rules/partner/index.js';
import { confirmPendingCharge, expectChargeCreated, keepAccountsApart, keepEnvironmentsApart, returnFinanceStatement } from '../../harness/rules/partner/index.js';
import { HarnessError } from '../../harness/core/errors.js';
import { notRunReason } from '../../harness/config/target.js';
import type { ApiResponse, PartnerClient } from '../../harness/http/partner-client.js';
import type { IsolationActor, IsolationCell, IsolationHome } from '../../harness/rules/isolation-cells.js';
import { cancelPendingCharge, isolatePartnerData, listAccountCharges, locateChargeList, PAY_SIMULATION_ISOLATION, payCell, PARTNER_CREDENTIAL_MISSING, PARTNER_ISOLATION, PARTNER_ISOLATION_CELLS } from '../../harness/rules/partner/index.js';
import { chargeBody, createCharge, CREATES_CHARGES, is2xx, isRecord, LISTS_CHARGES, LOOKS_UP, lookupState, msUntil, PARTNER_WEBHOOK_PATH, pollUntil, READS_STATEMENTS, refToken, waitForEvent } from './support.js';

const AREA = 'Keys and environments';

interface Side {
  key: PartnerKeyName;
  /** the boundary crossed: its rule decides how firm each finding is */
  boundary: 'account' | 'environment';
}

async function acrossBoundary(t: CheckTools, side: Side): Promise<void> {
  const ours = t.partner();
  const theirs = t.partner(side.key);
  const judgeBoundary = (observation: BeyondLookups): boolean => (side.boundary === 'account' ? t.judge(keepAccountsApart, observation) : t.judge(keepEnvironmentsApart, observation));
  const actor = side.boundary === 'account' ? ('other-account' as const) : ('production' as const);
  const key = `ptc-${randomUUID()}`;
  const body = chargeBody(`iso-${side.key}`);
  const first = await createCharge(t.run, ours, body, { idempotencyKey: key });
  if (!first.id) return;
  const ownBody = chargeBody(`iso-${side.key}-own`);
  const [sameKey, own] = await Promise.all([theirs.createCharge(structuredClone(body), { idempotencyKey: key }), theirs.createCharge(ownBody)]);
  // "Idempotency: same key and same body returns the original response" — within the caller's data
  judgeBoundary({ kind: 'key-reuse', ourChargeId: first.id, answer: sameKey, first: first.response.exchange });
  t.run.note(`the same Idempotency-Key and body sent by the other side answered ${sameKey.status}`);
  t.judge(expectChargeCreated, own);

  const pay = await ours.payCharge(first.id);
  if (t.judge(confirmPendingCharge, { kind: 'pay', answer: pay }) && is2xx(pay)) {
    const [paid, statement] = await Promise.all([lookupState(t.run, ours, first.id), theirs.getFinance()]);
    if (t.judge(returnFinanceStatement, statement) && is2xx(statement)) {
      t.judge(isolatePartnerData, { actor, home: 'own-sandbox', kind: 'ledger posting', form: 'postings', statement: statement.json, ours: { id: first.id, e2eId: paid.charge?.e2e_id }, exchanges: [pay.exchange, statement.exchange] });
    }
  }

  // their charge was created before ours was paid: once our paid event is in, theirs would be too
  const secret = t.target.partner?.webhookSecret;
  const ownRef = ownBody.external_ref;
  if (secret && process.env['PAYGATE_RECEIVER_URL'] && is2xx(own) && ownRef !== undefined && is2xx(pay)) {
    const receiver = t.receiver();
    await waitForEvent(receiver, body.external_ref!, 'business.pix.paid');
    const deliveries = await receiver.deliveries({ path: PARTNER_WEBHOOK_PATH });
    const observed = { kind: 'deliveries' as const, deliveries, token: refToken(ownRef), secret, exchanges: [own.exchange] };
    t.judge(isolatePartnerData, { actor: 'sandbox', home: side.boundary === 'account' ? 'other-sandbox' : 'own-production', kind: 'pending charge', form: 'delivery', event: 'business.pix.created', observed });
  }

  // leave nothing pending in production
  if (side.key === 'live') {
    const created = [own, sameKey].map((r) => (is2xx(r) && isRecord(r.json) ? r.json.id : undefined)).filter((id): id is string => typeof id === 'string' && id !== first.id);
    await Promise.all(created.map((id) => theirs.cancelCharge(id)));
  }
}

check('another account shares no idempotency key, ledger posting or webhook delivery with us', {
  id: 'partner.isolation.other-account',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  needs: ['partner.other'],
  rules: [...CREATES_CHARGES, ...LOOKS_UP, confirmPendingCharge, returnFinanceStatement, keepAccountsApart, isolatePartnerData],
}, async (t) => {
  // our endpoint is registered for our account: another account's event signed with our secret fails
  await acrossBoundary(t, { key: 'other', boundary: 'account' });
});

check('production shares no idempotency key, ledger posting or webhook delivery with the sandbox', {
  id: 'partner.isolation.production',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  needs: ['partner.live'],
  rules: [...CREATES_CHARGES, ...LOOKS_UP, confirmPendingCharge, returnFinanceStatement, keepEnvironmentsApart, isolatePartnerData],
}, async (t) => {
  // whether one URL was registered for both environments is not stated: a production event at our
  // sandbox endpoint only warns
  await acrossBoundary(t, { key: 'live', boundary: 'environment' });
});

// ── the isolation relation, every cell a request can try (harness/rules/partner/isolation-matrix.ts) ──

type Clients = Partial<Record<IsolationActor, PartnerClient>>;

/** The clients of the keys the target configures (the sandbox key always). */
function keyClients(t: CheckTools): Clients {
  return {
    sandbox: t.partner(),
    ...(notRunReason(t.target, 'partner.live') === undefined && { production: t.partner('live') }),
    ...(notRunReason(t.target, 'partner.other') === undefined && { 'other-account': t.partner('other') }),
  };
}

/** Who makes the charges of a home. */
const MAKER: Record<IsolationHome, IsolationActor> = { 'own-sandbox': 'sandbox', 'own-production': 'production', 'other-sandbox': 'other-account' };

/** Cells whose key (or whose home's key) is not configured: marked with the variable's name. */
function markMissing(t: CheckTools, cells: readonly IsolationCell[], clients: Clients): IsolationCell[] {
  return cells.filter((c) => {
    const missing = ([c.actor, MAKER[c.home]] as const).find((a) => clients[a] === undefined);
    if (missing === undefined || missing === 'sandbox') return true;
    t.run.cannotTry(PARTNER_ISOLATION, [c.cell], PARTNER_CREDENTIAL_MISSING[missing]);
    // the same call is a cell of the pay simulation relation too (all but the production key on another account's charge)
    if (c.form === 'simulation' && !(c.actor === 'production' && c.home === 'other-sandbox')) t.run.cannotTry(PAY_SIMULATION_ISOLATION, [payCell(c.operation, c.actor, c.home === 'own-production' ? 'production' : 'sandbox')], PARTNER_CREDENTIAL_MISSING[missing]);
    return false;
  });
}

/** A home's charges, by kind (`pending charge`, `paid charge`, `canceled charge`; the paid one's postings as `ledger posting`). */
type HomeCharges = Partial<Record<string, { id: string; ref: string; e2eId?: unknown }>>;

/** Makes a pending, a paid and a canceled charge of one home (as its cells need), each step judged by its rule. */
async function makeCharges(t: CheckTools, client: PartnerClient, home: IsolationHome, kinds: ReadonlySet<string>): Promise<HomeCharges> {
  const states = (['pending', 'paid', 'canceled'] as const).filter((s) => kinds.has(`${s} charge`) || (s === 'paid' && kinds.has('ledger posting')));
  const bodies = states.map((s) => chargeBody(`iso-${home}-${s}`));
  const created = await t.all(bodies, (body) => createCharge(t.run, client, body));
  const made: HomeCharges = {};
  // the owner pays one and cancels another: two charges, together
  await t.all(states, async (state, i) => {
    const id = created[i]?.id;
    const ref = bodies[i]?.external_ref ?? '';
    if (!id) return;
    if (state === 'pending') made['pending charge'] = { id, ref };
    else if (state === 'canceled') {
      if (t.judge(cancelPendingCharge, { kind: 'cancel', answer: await client.cancelCharge(id) })) made['canceled charge'] = { id, ref };
    } else {
      const pay = await client.payCharge(id);
      if (!t.judge(confirmPendingCharge, { kind: 'pay', answer: pay }) || !is2xx(pay)) return;
      const seen = await lookupState(t.run, client, id);
      made['paid charge'] = { id, ref, e2eId: seen.charge?.e2e_id };
      made['ledger posting'] = made['paid charge'];
    }
  });
  return made;
}

check('isolation matrix: every route naming or listing a charge, and the statement, for every key across an account or an environment', {
  id: 'partner.isolation.matrix',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [...CREATES_CHARGES, ...LOOKS_UP, ...LISTS_CHARGES, ...READS_STATEMENTS, confirmPendingCharge, cancelPendingCharge, isolatePartnerData],
}, async (t) => {
  // The production key makes and cancels charges, reads, lists and calls the pay simulation (which
  // must answer 403): "PIX out … is not available", nothing here moves money.
  const clients = keyClients(t);
  const cells = markMissing(t, PARTNER_ISOLATION_CELLS.filter((c) => c.form !== 'delivery' && c.untryable === undefined && c.timer !== true), clients);
  const homes = [...new Set(cells.map((c) => c.home))];
  const made = await t.all(homes, (home) => makeCharges(t, clients[MAKER[home]]!, home, new Set(cells.filter((c) => c.home === home).map((c) => c.kind))));
  const charges = new Map(homes.map((home, i) => [home, made[i]!] as const));
  const probes = cells.flatMap((c) => {
    const charge = charges.get(c.home)?.[c.kind];
    return charge ? [{ c, charge }] : [];
  });
  // every probe names another charge or only reads: all together, judged in cell order
  const answers = await t.all(probes, ({ c, charge }) => send(clients[c.actor]!, c, charge.id));
  const statuses = new Map<string, number[]>();
  probes.forEach(({ c, charge }, i) => {
    const answer = answers[i]!;
    const place = { actor: c.actor, home: c.home, kind: c.kind };
    if (c.kind === 'ledger posting') {
      if (t.judge(returnFinanceStatement, answer) && is2xx(answer)) t.judge(isolatePartnerData, { ...place, form: 'postings', statement: answer.json, ours: { id: charge.id, e2eId: charge.e2eId }, exchanges: [answer.exchange] });
    } else if (c.form === 'list') {
      // the list's own shape is the list rules' (one locator, no note per list here)
      const list = t.judge(listAccountCharges, { kind: 'answer', answer }) ? locateChargeList(answer.json) : undefined;
      if (list) t.judge(isolatePartnerData, { ...place, form: 'list', operation: c.operation, list, foreignId: charge.id, exchange: answer.exchange });
    } else {
      t.judge(isolatePartnerData, { ...place, form: 'by-id', operation: c.operation, answer });
      const key = `${c.actor} on ${c.home}`;
      statuses.set(key, [...(statuses.get(key) ?? []), answer.status]);
    }
  });
  t.run.note(`statuses by crossing: ${[...statuses].map(([k, s]) => `${k}: ${[...new Set(s)].join('/')}`).join('; ')}`);
  // leave nothing pending in production
  const live = clients.production?.withObserver(undefined);
  const pending = charges.get('own-production')?.['pending charge'];
  if (live && pending) await live.cancelCharge(pending.id).catch(() => undefined);
});

/** One cell's request: the spec's routes the suite knows (a new one is a harness error). */
function send(client: PartnerClient, c: IsolationCell, id: string): Promise<ApiResponse> {
  const [path, query] = c.operation.split('?') as [string, string | undefined];
  switch (path) {
    case 'GET /business/pix-charges/{id}':
      return client.getCharge(id);
    case 'POST /business/pix-charges/{id}/cancel':
      return client.cancelCharge(id);
    case 'POST /business/pix-charges/{id}/pay':
      return client.payCharge(id);
    case 'GET /business/pix-charges':
      return client.listCharges(query !== undefined ? Object.fromEntries(new URLSearchParams(query)) : {});
    case 'GET /business/finance':
      return client.getFinance();
    default:
      throw new HarnessError('isolation.route', `the spec's ${c.operation} has no request in the isolation matrix`);
  }
}

check('isolation matrix: our endpoint receives no event of a charge of our production or of another account', {
  id: 'partner.isolation.deliveries',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [...CREATES_CHARGES, ...LOOKS_UP, confirmPendingCharge, cancelPendingCharge, isolatePartnerData],
}, async (t) => {
  const clients = keyClients(t);
  const secret = t.target.partner?.webhookSecret;
  let cells = PARTNER_ISOLATION_CELLS.filter((c) => c.form === 'delivery' && c.untryable === undefined && c.timer !== true);
  if (!secret) {
    t.run.cannotTry(PARTNER_ISOLATION, cells.map((c) => c.cell), PARTNER_CREDENTIAL_MISSING.webhooks);
    return t.notRun('partner.webhooks', 'PARTNER_WEBHOOK_SECRET not set: our endpoint cannot tell its own deliveries');
  }
  if (!process.env['PAYGATE_RECEIVER_URL']) return t.notRun('partner.webhooks', 'the callback receiver is not running: deliveries cannot be seen');
  cells = markMissing(t, cells, clients);
  const homes = [...new Set(cells.map((c) => c.home))];
  // their charges first (created, then paid or canceled by their owner), then ours: once our events
  // are in, theirs, sent before, would be too
  const made = await t.all(homes, (home) => makeCharges(t, clients[MAKER[home]]!, home, new Set(cells.filter((c) => c.home === home).map((c) => c.kind))));
  const charges = new Map(homes.map((home, i) => [home, made[i]!] as const));
  const ours = await makeCharges(t, clients.sandbox!, 'own-sandbox', new Set(['paid charge', 'canceled charge']));
  const receiver = t.receiver();
  const controls = await Promise.all([['paid charge', 'business.pix.paid'], ['canceled charge', 'business.pix.canceled']].map(([kind, type]) => {
    const ref = ours[kind!]?.ref;
    return ref !== undefined ? waitForEvent(receiver, ref, type!) : Promise.resolve(undefined);
  }));
  if (controls.some((d) => d === undefined)) return t.run.note("our own charges' events did not arrive: nothing is judged about theirs (an absence proves nothing)");
  const deliveries = await receiver.deliveries({ path: PARTNER_WEBHOOK_PATH });
  for (const c of cells) {
    const charge = charges.get(c.home)?.[c.kind];
    if (!charge) continue;
    const event = c.operation.slice('event '.length);
    const ofType = deliveries.filter((d) => isRecord(d.json) && d.json.type === event);
    t.judge(isolatePartnerData, { actor: c.actor, home: c.home, kind: c.kind, form: 'delivery', event, observed: { kind: 'deliveries', deliveries: ofType, token: refToken(charge.ref), secret, exchanges: [] } });
  }
  const pending = charges.get('own-production')?.['pending charge'];
  if (clients.production && pending) await clients.production.withObserver(undefined).cancelCharge(pending.id).catch(() => undefined);
});

check('isolation matrix: a list filtered by expired shows no expired charge of another account or environment', {
  id: 'partner.isolation.expired',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  tier: 'timer',
  rules: [...CREATES_CHARGES, ...LOOKS_UP, ...LISTS_CHARGES, isolatePartnerData],
}, async (t) => {
  // "pending | first lookup … after expires_at | no payment | expired": one charge per home with the
  // shortest expiry (60 s), looked up by its owner until it shows expired, then every other key
  // lists ?status=expired. Nothing is left pending in production: the charge expired.
  const clients = keyClients(t);
  const cells = markMissing(t, PARTNER_ISOLATION_CELLS.filter((c) => c.timer === true), clients);
  const homes = [...new Set(cells.map((c) => c.home))];
  const created = await t.all(homes, (home) => createCharge(t.run, clients[MAKER[home]]!, chargeBody(`iso-${home}-expired`, { expires_in_seconds: 60 })));
  const expiresAt = created.map((c) => (c.id && isRecord(c.response.json) ? msUntil(c.response.json.expires_at) : undefined));
  // sleep until just before the latest expires_at (derived from the target), then each owner polls
  // its charge until it leaves pending, allowing 60 s of clock skew
  const wait = Math.max(0, ...expiresAt.map((ms) => ms ?? 0));
  await new Promise((r) => setTimeout(r, Math.max(0, wait - 1_000)));
  const expired = await t.all(homes, async (home, i) => {
    const id = created[i]?.id;
    if (!id) return undefined;
    const seen = await pollUntil(async () => {
      const s = await lookupState(t.run, clients[MAKER[home]]!, id);
      return s.state !== undefined && s.state !== 'pending' ? s : undefined;
    }, Date.now() + 61_000, 500);
    return seen?.state === 'expired' ? id : undefined;
  });
  const ids = new Map(homes.map((home, i) => [home, expired[i]] as const));
  const probes = cells.flatMap((c) => (ids.get(c.home) !== undefined ? [c] : []));
  const answers = await t.all(probes, (c) => clients[c.actor]!.listCharges({ status: 'expired' }));
  probes.forEach((c, i) => {
    const answer = answers[i]!;
    const list = t.judge(listAccountCharges, { kind: 'answer', answer }) ? locateChargeList(answer.json) : undefined;
    if (list) t.judge(isolatePartnerData, { actor: c.actor, home: c.home, kind: c.kind, form: 'list', operation: c.operation, list, foreignId: ids.get(c.home)!, exchange: answer.exchange });
  });
  const unexpired = homes.filter((home) => ids.get(home) === undefined);
  if (unexpired.length > 0) t.run.note(`no expired charge to list for ${unexpired.join(', ')} (expiry itself is judged by partner.transitions.lazy-expiry)`);
});
