// The receiver target's plumbing: CLI flags, configuration, which checks and requirements are in
// scope in each kind of run, the read-back hook's shape, the catalogue's `target` key, and the
// reference receiver's own behaviour (correct by default, each fault switchable).
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError, parseArgs, workerEnv } from '../harness/cli/args.js';
import { loadReceiverTarget, receiverConfigProblems, receiverNotRunReason } from '../harness/config/receiver-target.js';
import { countFor, parseReceiverState } from '../harness/http/receiver-target-client.js';
import { buildConformance, receiverScopeReason } from '../harness/report/verdict.js';
import type { RunInfo } from '../harness/report/verdict.js';
import { loadRequirements, parseRequirements } from '../harness/contract/requirements.js';
import { startReferenceReceiver } from '../reference/receiver/server.js';
import type { RunningReferenceReceiver } from '../reference/receiver/server.js';

const RECEIVER_ENV = { PAYGATE_TARGET_KIND: 'receiver', PAYGATE_RECEIVER_TARGET_URL: 'http://127.0.0.1:9/hooks', PAYGATE_RECEIVER_SCHEME: 'partner', RECEIVER_SIGNATURE_SECRET: 'whsec_test_secret' };

describe('CLI flags of a receiver run', () => {
  it('takes --receiver-url with --receiver-scheme and hands them to the workers', () => {
    const options = parseArgs(['--receiver-url', 'http://127.0.0.1:9/hooks', '--receiver-scheme', 'gateway', '--seed', '3']);
    expect(options.receiver).toEqual({ url: 'http://127.0.0.1:9/hooks', scheme: 'gateway' });
    expect(workerEnv(options, 3)).toMatchObject({ PAYGATE_TARGET_KIND: 'receiver', PAYGATE_RECEIVER_TARGET_URL: 'http://127.0.0.1:9/hooks', PAYGATE_RECEIVER_SCHEME: 'gateway' });
    expect(workerEnv(parseArgs([]), 3)['PAYGATE_TARGET_KIND']).toBeUndefined();
  });
  it('rejects one without the other, an unknown scheme, and --api', () => {
    expect(() => parseArgs(['--receiver-url', 'http://x'])).toThrow(UsageError);
    expect(() => parseArgs(['--receiver-scheme', 'partner'])).toThrow(UsageError);
    expect(() => parseArgs(['--receiver-url', 'http://x', '--receiver-scheme', 'card'])).toThrow(UsageError);
    expect(() => parseArgs(['--receiver-url', 'http://x', '--receiver-scheme', 'partner', '--api', 'partner'])).toThrow(UsageError);
  });
});

describe('receiver configuration', () => {
  it('needs a URL, a scheme and the secret; the state hook is optional', () => {
    expect(receiverConfigProblems('http://127.0.0.1:9/hooks', 'partner', { RECEIVER_SIGNATURE_SECRET: 's3cret' })).toEqual([]);
    expect(receiverConfigProblems('not a url', 'partner', {}).join('\n')).toMatch(/not a URL[\s\S]*RECEIVER_SIGNATURE_SECRET is not set/);
    expect(receiverConfigProblems('ftp://x', 'partner', { RECEIVER_SIGNATURE_SECRET: 's', RECEIVER_STATE_URL: 'nope' })).toHaveLength(2);
  });
  it('loads the target only in a receiver run', () => {
    expect(loadReceiverTarget({})).toBeUndefined();
    expect(loadReceiverTarget({ ...RECEIVER_ENV, RECEIVER_STATE_URL: 'http://127.0.0.1:9/state' })).toEqual({ url: 'http://127.0.0.1:9/hooks', scheme: 'partner', secret: 'whsec_test_secret', stateUrl: 'http://127.0.0.1:9/state' });
  });
  it('runs receiver checks only in a receiver run of their scheme, and API checks never in one', () => {
    expect(receiverNotRunReason({ api: 'partner', target: 'receiver' }, {})).toMatch(/no receiver target/);
    expect(receiverNotRunReason({ api: 'partner', target: 'receiver' }, RECEIVER_ENV)).toBeUndefined();
    expect(receiverNotRunReason({ api: 'gateway', target: 'receiver' }, RECEIVER_ENV)).toMatch(/scheme is partner/);
    expect(receiverNotRunReason({ api: 'gateway' }, RECEIVER_ENV)).toMatch(/APIs are not tested/);
    expect(receiverNotRunReason({ api: 'gateway' }, {})).toBeUndefined();
  });
});

describe('the read-back hook', () => {
  it('parses the documented shape and sums counts per event ids', () => {
    const entries = parseReceiverState({ processed: [{ eventId: 'a', endToEndId: 'E1', count: 1 }, { eventId: 'b', endToEndId: null, count: 0 }] });
    expect(Array.isArray(entries)).toBe(true);
    if (typeof entries === 'string') return;
    expect(countFor(entries, ['a', 'b'])).toBe(1);
    expect(countFor(entries, ['zzz'])).toBeUndefined();
  });
  it('says what is wrong with another shape', () => {
    expect(parseReceiverState([])).toMatch(/"processed" array/);
    expect(parseReceiverState({ processed: [{ eventId: 'a', count: -1 }] })).toMatch(/processed\[0\]/);
    expect(parseReceiverState({ processed: [{ id: 'a', count: 1 }] })).toMatch(/processed\[0\]/);
  });
});

describe('requirements with target: receiver', () => {
  const entry = (extra: string): { name: string; text: string }[] => [
    { name: 'x.yaml', text: `- id: PT-RCV-X\n  api: partner\n  section: "Events"\n  quote: "q"\n  kind: checkable\n${extra}` },
  ];
  it('parses the key, and rejects another value', () => {
    expect(parseRequirements(entry('  target: receiver\n'))[0]?.target).toBe('receiver');
    expect(parseRequirements(entry(''))[0]?.target).toBeUndefined();
    expect(() => parseRequirements(entry('  target: service\n'))).toThrow(/target/);
  });
  it('the catalogue gives every receiver duty of both contracts an ID of its own, checkable or with a reason', () => {
    const receiver = loadRequirements().filter((r) => r.target === 'receiver');
    expect(receiver.filter((r) => r.api === 'gateway').length).toBeGreaterThanOrEqual(10);
    expect(receiver.filter((r) => r.api === 'partner').length).toBeGreaterThanOrEqual(10);
    for (const r of receiver) expect(r.id).toMatch(/^(GW|PT)-RCV-/);
    // the service-side entries that named a receiver duty now point to it
    const pointers = loadRequirements().filter((r) => r.target === undefined && r.kind === 'unobservable' && /-RCV-/.test(r.reason ?? ''));
    expect(pointers.map((r) => r.id).sort()).toEqual(['GW-EVT-DUPLICATES', 'GW-EVT-RECEIVER-2XX', 'GW-WH-CONSTANT-TIME', 'PT-EVT-PAID-CREDITS', 'PT-WH-CONSTANT-TIME', 'PT-WH-CREDIT-IDEMPOTENT', 'PT-WH-RECEIVER-2XX']);
  });
});

describe('verdicts by target kind', () => {
  const run = (over: Partial<RunInfo> = {}): RunInfo => ({ version: '0', profile: 'quick', seed: 1, startedAt: '2026-11-24T10:00:00Z', durationMs: 1, targets: {}, strict: false, embedded: true, notTested: {}, ...over });
  it('receiver requirements are "not run (no receiver target)" in an API run, API requirements not run in a receiver run', () => {
    expect(receiverScopeReason({ api: 'partner', target: 'receiver' }, run())).toMatch(/no receiver target/);
    expect(receiverScopeReason({ api: 'partner', target: 'receiver' }, run({ receiver: { url: 'u', scheme: 'partner' } }))).toBeUndefined();
    expect(receiverScopeReason({ api: 'gateway', target: 'receiver' }, run({ receiver: { url: 'u', scheme: 'partner' } }))).toMatch(/partner scheme/);
    expect(receiverScopeReason({ api: 'gateway' }, run({ receiver: { url: 'u', scheme: 'partner' } }))).toMatch(/API requirements/);
    expect(receiverScopeReason({ api: 'gateway' }, run())).toBeUndefined();
  });
  it('an API run lists receiver requirements as not run, not as uncovered', () => {
    const report = buildConformance(run(), [], loadRequirements());
    const rcv = report.requirements.find((r) => r.id === 'PT-RCV-RAW-BODY');
    expect(rcv).toMatchObject({ verdict: 'not-run' });
    expect(rcv?.reason).toMatch(/no receiver target/);
    expect(report.coverage.notCovered).not.toContain('PT-RCV-RAW-BODY');
  });
});

describe('reference receiver', () => {
  const secret = 'whsec_unit_test';
  let correct: RunningReferenceReceiver;
  let faulty: RunningReferenceReceiver;
  beforeAll(async () => {
    correct = await startReferenceReceiver({ secret });
    faulty = await startReferenceReceiver({ secret, faults: 'accept-bad-signature,process-duplicates' });
  });
  afterAll(async () => {
    await correct.close();
    await faulty.close();
  });
  const post = async (url: string, body: string, signature?: string): Promise<number> =>
    (await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...(signature !== undefined && { 'x-service-signature': signature }) } })).status;
  const sign = (body: string, t = Math.floor(Date.now() / 1000)): string => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
  const state = async (r: RunningReferenceReceiver): Promise<unknown> => (await fetch(r.stateUrl('partner'))).json();
  const until = async (check: () => Promise<boolean>): Promise<void> => {
    for (let i = 0; i < 50 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const event = JSON.stringify({ id: 'evt_1', type: 'business.pix.paid', created_at: '2026-11-24T10:00:00Z', data: { amount_cents: 100, e2e_id: 'E1', external_ref: 'r1' } });

  it('correct: accepts a signed event once, refuses unsigned, forged and stale ones', async () => {
    expect(await post(correct.endpoint('partner'), event, sign(event))).toBe(200);
    expect(await post(correct.endpoint('partner'), event, sign(event))).toBe(200);
    expect(await post(correct.endpoint('partner'), event)).toBe(401);
    expect(await post(correct.endpoint('partner'), event, sign(`${event} `))).toBe(401);
    expect(await post(correct.endpoint('partner'), event, sign(event, Math.floor(Date.now() / 1000) - 600))).toBe(401);
    await until(async () => JSON.stringify(await state(correct)).includes('"count":1'));
    expect(await state(correct)).toEqual({ processed: [{ eventId: 'evt_1', endToEndId: 'E1', count: 1 }] });
  });
  it('faulty: accepts an unsigned event and processes a replay twice', async () => {
    expect(await post(faulty.endpoint('partner'), event)).toBe(200);
    expect(await post(faulty.endpoint('partner'), event)).toBe(200);
    await until(async () => JSON.stringify(await state(faulty)).includes('"count":2'));
    expect(await state(faulty)).toEqual({ processed: [{ eventId: 'evt_1', endToEndId: 'E1', count: 2 }] });
  });
  it('rejects an unknown fault name', async () => {
    await expect(startReferenceReceiver({ secret, faults: 'no-such-fault' })).rejects.toThrow(/unknown receiver fault/);
  });
});
