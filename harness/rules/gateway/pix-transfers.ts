/**
 * PIX transfers (cash-out): gateway-api.md "POST /api/v1/pix/out/pixkey", "GET
 * /api/v1/pix/out/pixkey/{transferId}", "POST …/{transferId}/complete (sandbox)", the "PIX
 * transfer" states and "PIX transfer (response `data`)".
 */
import type { Exchange } from '../../core/exchange.js';
import type { Finding, Judgement } from '../finding.js';
import { combine, judge, makeFinding, show, type RuleContext } from '../judgement.js';
import { verifyIsoTimestamp } from '../time.js';
import { dataOf } from '../../core/json.js';
import { expectInvalidBodyRejected, NOTHING_DECIDED } from './errors.js';
import { readPixKey } from './documents-keys.js';

const DOCUMENTED_TRANSFER_STATES = ['pending', 'banking_processing', 'completed', 'refused'];

function asWarnings(j: Judgement, title: string): Judgement {
  return { requirements: j.requirements, findings: j.findings.map((f): Finding => ({ ...f, severity: 'warning', title: `${title}: ${f.title}` })) };
}

function accepted(exchange: Exchange): boolean {
  const s = exchange.response?.status ?? 0;
  return s >= 200 && s <= 299;
}

/**
 * "pixKey | CPF (digits), CNPJ (digits), e-mail, phone with +55 prefix, or random key (UUID)": a
 * key matching none of the five formats is an invalid body ({@link expectInvalidBodyRejected}).
 * Which keys match none is read by one oracle, rules/gateway/documents-keys.ts `readPixKey` (issue
 * 15): a CPF- or CNPJ-shaped key with wrong check digits (or of one repeated digit) is no CPF or
 * CNPJ, and 11 bare digits are no "phone with +55 prefix" either, so accepting it FAILS. Only the
 * forms the text does not pin down (punctuation, an alphanumeric CNPJ, a +55 phone of another digit
 * count, a UUID without hyphens, a dotless e-mail domain) may be accepted: a WARNING then.
 */
export function expectPixKeyRejected(exchange: Exchange, key: { kind: string; value: string }, ctx: RuleContext): Judgement {
  const j = expectInvalidBodyRejected(exchange, ctx);
  const reading = readPixKey(key.value);
  return reading.standing !== 'invalid' && accepted(exchange) ? asWarnings(j, `a ${key.kind} key ${show(key.value)} (${reading.why}) was accepted`) : j;
}

/**
 * "currency | string | no | only `BRL`; default `BRL`": another currency is an invalid body. Lower
 * case `brl` (case normalised) and `""` (read as absent, i.e. the BRL default) harm no one:
 * accepting them is a WARNING.
 */
export function expectTransferCurrencyRejected(exchange: Exchange, currency: unknown, ctx: RuleContext): Judgement {
  const j = expectInvalidBodyRejected(exchange, ctx);
  return (currency === 'brl' || currency === '') && accepted(exchange) ? asWarnings(j, `currency ${show(currency)} was accepted as BRL`) : j;
}

export interface TransferAnswer {
  exchange: Exchange;
  json: unknown;
}

/**
 * "Resending with the same key and body returns the original response and never duplicates the
 * transfer": a replay answers the original status and the same transfer (`data.id`); a replay with
 * another id FAILS (`idempotency.new-transfer`, a duplicate); other differences in the money fields
 * or the key are WARNINGS ("the original response": whether volatile fields may differ is not stated).
 */
export function verifyIdempotentReplay(original: TransferAnswer, replay: TransferAnswer, ctx: RuleContext): Judgement {
  const originalStatus = original.exchange.response?.status;
  const replayStatus = replay.exchange.response?.status;
  const c: RuleContext = { ...ctx, exchanges: [original.exchange, replay.exchange] };
  const first = dataOf(original.json);
  const again = dataOf(replay.json);
  if (replayStatus !== originalStatus) {
    return judge(ctx, makeFinding(c, {
      code: 'idempotency.replay-differs', severity: replayStatus !== undefined && replayStatus >= 200 && replayStatus <= 299 ? 'warning' : 'failure',
      title: 'a replay with the same key and body did not answer the original status',
      expected: `HTTP ${String(originalStatus)} (the original response)`, actual: `HTTP ${String(replayStatus)}`,
    }));
  }
  if (!first || !again) return judge(ctx);
  if (again.id !== first.id) {
    return judge(ctx, makeFinding(c, {
      code: 'idempotency.new-transfer', severity: 'failure', title: 'a replay with the same key and body answered another transfer',
      expected: `data.id = ${show(first.id)} (the original response)`, actual: `data.id = ${show(again.id)}`,
    }));
  }
  const findings = ['amount', 'netAmount', 'fees', 'pixKey']
    .filter((field) => JSON.stringify(again[field]) !== JSON.stringify(first[field]))
    .map((field) => makeFinding(c, {
      code: 'idempotency.replay-differs', severity: 'warning', title: `the replayed response differs in data.${field}`,
      expected: `data.${field} = ${show(first[field])} (the original response)`, actual: `data.${field} = ${show(again[field])}`,
    }));
  return judge(ctx, findings);
}

/**
 * The answer to a valid sandbox transfer: "200: … data (PIX transfer: id, status, amount, netAmount,
 * fees, pixKey)" carrying the amount sent (failure `pixout.amount-echo` otherwise), and the status of
 * "(creation, sandbox) | sandbox credentials; no manual review | banking_processing". Manual review
 * is invisible to the client and a transfer under review is `pending` (issue 14: large transfers may
 * be held), so `pending` passes (the caller notes it); `completed` or `refused` at creation is a
 * WARNING; an undocumented status fails (`pixout.status-at-creation`).
 */
export function verifyCreatedTransfer(json: unknown, sent: { amount: number }, ctx: RuleContext): Judgement {
  const data = dataOf(json);
  const status = data?.status;
  const amount = data?.amount === sent.amount ? undefined : makeFinding({ ...ctx, pointer: '/data/amount' }, {
    code: 'pixout.amount-echo', severity: 'failure', title: 'the created transfer does not carry the amount sent', expected: `data.amount = ${sent.amount}`, actual: `data.amount = ${show(data?.amount)}`,
  });
  let state: Finding | undefined;
  if (status !== 'banking_processing' && status !== 'pending') {
    const documented = typeof status === 'string' && DOCUMENTED_TRANSFER_STATES.includes(status);
    state = makeFinding({ ...ctx, pointer: '/data/status' }, {
      code: 'pixout.status-at-creation', severity: documented ? 'warning' : 'failure', title: 'a sandbox transfer is not banking_processing after creation',
      expected: 'status "banking_processing" (or "pending" under manual review)', actual: `status ${show(status)}`,
    });
  }
  return judge(ctx, amount, state);
}

/**
 * A transfer answer shows `expected` as its status: "/complete … data{id, status, endToEndId} with
 * status `completed`" (code `pixout.complete-status`) and the lookup after it (code
 * `pixout.lookup-status`). Failure otherwise.
 */
export function ensureTransferStatus(json: unknown, expected: 'completed', ctx: RuleContext, on: 'complete' | 'lookup'): Judgement {
  const status = dataOf(json)?.status;
  if (status === expected) return judge(ctx);
  return judge(ctx, makeFinding({ ...ctx, pointer: '/data/status' }, {
    code: on === 'complete' ? 'pixout.complete-status' : 'pixout.lookup-status', severity: 'failure',
    title: on === 'complete' ? `/complete did not answer status ${expected}` : `the lookup after /complete does not show status ${expected}`,
    expected: `data.status = "${expected}"`, actual: `data.status = ${show(status)}`,
  }));
}

/**
 * "GET …: data (PIX transfer including endToEndId, createdAt, updatedAt, processedAt)", ISO 8601
 * timestamps. Before processing `processedAt` is not shown (GW-PIXOUT-TIMESTAMPS-ISO ambiguity):
 * absent or null passes while the transfer is not `completed`; once completed all three must be
 * timestamps.
 */
export function verifyTransferTimestamps(json: unknown, ctx: RuleContext): Judgement {
  const data = dataOf(json);
  if (!data) return NOTHING_DECIDED;
  const completed = data.status === 'completed';
  return combine(
    ...['createdAt', 'updatedAt', 'processedAt'].map((field) => {
      const value = data[field];
      if (field === 'processedAt' && !completed && (value === undefined || value === null)) return judge(ctx);
      return verifyIsoTimestamp(value, { ...ctx, subject: `data.${field}`, pointer: `/data/${field}` });
    }),
  );
}

/**
 * "currency | only `BRL`; default `BRL`": the transfer resource documents no currency field, so a
 * lookup without one decides nothing; when it shows one for a transfer sent without currency, it is
 * `BRL` (failure `pixout.currency-default` otherwise).
 */
export function verifyDefaultCurrency(json: unknown, ctx: RuleContext): Judgement {
  const currency = dataOf(json)?.currency;
  if (currency === undefined) return NOTHING_DECIDED;
  if (currency === 'BRL') return judge(ctx);
  return judge(ctx, makeFinding({ ...ctx, pointer: '/data/currency' }, {
    code: 'pixout.currency-default', severity: 'failure', title: 'a transfer sent without currency is not in BRL', expected: 'currency BRL (default)', actual: `data.currency = ${show(currency)}`,
  }));
}

/**
 * "banking_processing | …/complete | … sandbox balance covers the amount | completed": a transfer
 * the balance cannot cover is never completed. The refusal status is not stated (any 4xx passes,
 * judged by the caller's status rule); a lookup showing `completed` fails
 * (`pixout.completed-without-balance`).
 */
export function ensureNotCompletedWithoutBalance(lookupJson: unknown, amount: number, ctx: RuleContext): Judgement {
  const status = dataOf(lookupJson)?.status;
  if (status !== 'completed') return judge(ctx);
  return judge(ctx, makeFinding(ctx, {
    code: 'pixout.completed-without-balance', severity: 'failure', title: 'a transfer larger than the balance was completed',
    expected: `the transfer of ${amount} cents stays uncompleted`, actual: `lookup status ${show(status)}`,
  }));
}
