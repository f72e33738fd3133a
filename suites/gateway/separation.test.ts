/**
 * Where implementations share state by accident (issue 15): an idempotency cache keyed without the
 * account or the environment, a balance query without the environment, simulation routes that check
 * the resource's environment instead of the caller's, and money that leaves (or not) the balance.
 * gateway-api.md: "Sandbox data is isolated, the sandbox balance … is separate from the real
 * balance"; "Simulation routes (`/pay`, `/complete`) work only with sandbox credentials; with
 * production credentials they answer 403"; "x-idempotency-key: a unique value (UUID) per operation";
 * "404 | resource not found or belongs to another account"; "banking_processing | …/complete | …
 * sandbox balance covers the amount | completed".
 *
 * Safety: with production credentials these checks only read the balance, create a pending PIX
 * charge (no money moves until someone pays it), call /pay (which must answer 403) and send a
 * transfer body without pixKey and amount (`{}`: no transfer can be made of it).
 */
import { randomUUID } from 'node:crypto';
import { check } from '../../harness/run/check.js';
import { show } from '../../harness/rules/judgement.js';
import { debitCompletedTransfer, type BalanceWindow } from '../../harness/rules/gateway/balance.js';
import { ensureTransferCompleted, honourTransferRequest, refuseUncoveredCompletion } from '../../harness/rules/gateway/pix-transfers.js';
import { hideOtherAccountsResources, isolateAccountsAndEnvironments, isolateSandboxData } from '../../harness/rules/gateway/isolation.js';
import { balanceAround, readPixBalance } from './support.js';
import { createCharge, dataOf, fundSandbox, is2xx, MOVES_MONEY, transferBody } from './webhook-steps.js';

const AREA = 'Isolation';

check("an idempotency key is the operation of one account: another account's first use gets its own transfer", {
  id: 'gateway.separation.idempotency-account', api: 'gateway', area: AREA, severity: 'critical', needs: ['gateway.other'],
  rules: [honourTransferRequest, hideOtherAccountsResources],
}, async (t) => {
  const key = randomUUID();
  const body = transferBody(140);
  const mine = await t.gateway().createTransfer(body, { idempotencyKey: key });
  t.judge(honourTransferRequest, { case: 'valid', body, answer: mine });
  if (!is2xx(mine)) return;
  const theirs = await t.gateway('other').createTransfer(body, { idempotencyKey: key });
  t.judge(hideOtherAccountsResources, { kind: 'idempotency-key', mine, theirs });
  t.run.note(`another account, same key and body: HTTP ${theirs.status}, data.id ${show(dataOf(theirs)?.id)} (ours ${show(dataOf(mine)?.id)})`);
});

check('the production balance does not move with the sandbox balance', {
  id: 'gateway.separation.balance', api: 'gateway', area: AREA, severity: 'critical', needs: ['gateway.live'],
  rules: [isolateSandboxData],
}, async (t) => {
  const sandbox = t.gateway();
  const live = t.gateway('live');
  // production is only READ: both balances read together before and after a sandbox credit
  const read = () => Promise.all([readPixBalance(sandbox), readPixBalance(live)]);
  const before = await read();
  if (!(await fundSandbox(sandbox, t.run, 1_000 + Math.floor(Math.random() * 900)))) return;
  const after = await read();
  const [sb, pb] = before.map((b) => b.cents);
  const [sa, pa] = after.map((b) => b.cents);
  if (sb === undefined || pb === undefined || sa === undefined || pa === undefined) return t.notRun('gateway', 'a balance could not be read as reais (reported by gateway.balance.shape)');
  t.judge(isolateSandboxData, { kind: 'balance', window: { sandboxBefore: sb, sandboxAfter: sa, productionBefore: pb, productionAfter: pa, exchanges: [...before, ...after].map((b) => b.response.exchange) } });
  t.run.note(`sandbox ${sb} → ${sa} cents, production ${pb} → ${pa} cents around a sandbox credit`);
});

check('production credentials cannot confirm a production charge through /pay (403)', {
  id: 'gateway.separation.live-pay-own-charge', api: 'gateway', area: AREA, severity: 'critical', needs: ['gateway.live'],
  rules: [isolateAccountsAndEnvironments],
}, async (t) => {
  // the 403 must come from the credentials, not from the resource belonging to another environment:
  // a charge created in production, paid with production credentials ("with production credentials
  // they answer 403")
  const live = t.gateway('live');
  const charge = await createCharge(live, t.run, 1_070);
  if (!charge) return t.notRun('gateway.live', 'production did not create a pending PIX charge');
  const pay = await live.payPixCharge(charge.id);
  t.judge(isolateAccountsAndEnvironments, { form: 'by-id', operation: 'POST /api/v1/pix/in/qrcode/{transactionId}/pay', actor: 'production', home: 'own-production', kind: 'PIX charge', answer: pay });
});

check('a completed transfer is debited from pix.balance', {
  id: 'gateway.separation.transfer-debit', api: 'gateway', area: 'Balance', severity: 'critical',
  rules: [...MOVES_MONEY, honourTransferRequest, ensureTransferCompleted, debitCompletedTransfer],
}, async (t) => {
  // "sandbox balance covers the amount"; "pix.balance | available balance": completing pays out of
  // it. Other files move the shared balance at any time: each attempt completes one transfer inside
  // a balanceAround window; the rule decides on an in-range debit (pass) or two QUIET windows with
  // wrong debits of one systematic effect (failure), else the check notes and gives up.
  const gw = t.gateway();
  const windows: BalanceWindow[] = [];
  let spacingMs = 0;
  for (let attempt = 0; attempt < 4; attempt++) {
    const amount = 500 + Math.floor(Math.random() * 500);
    if (!(await fundSandbox(gw, t.run, amount))) return;
    const body = transferBody(amount);
    const created = await gw.createTransfer(body);
    const data = dataOf(created);
    t.judge(honourTransferRequest, { case: 'valid', body, answer: created });
    if (!is2xx(created) || typeof data?.id !== 'string') return;
    if (data.status !== 'banking_processing') return t.notRun('gateway', `the transfer was created ${show(data.status)} (manual review?): /complete not exercised`);
    const id = data.id;
    // the window with no other check's write meanwhile (reads go on): decisive at the first attempt
    const w = await t.alone(() => balanceAround(gw, () => gw.completeTransfer(id), { spacingMs }), 'money');
    if (!w) return t.notRun('gateway', 'GET /api/v1/balance gave no usable data.pix.balance (reported by gateway.balance.shape)');
    spacingMs = w.actionMs;
    t.judge(ensureTransferCompleted, { case: 'answer', answer: w.result });
    if (!is2xx(w.result)) return;
    const fees = Number.isSafeInteger(data.fees) ? (data.fees as number) : 0;
    windows.push({ amount, fees, delta: w.delta, quiet: w.quiet, exchange: w.result.exchange, text: `${w.quiet ? 'quiet' : 'noisy'} window: /complete of ${amount} cents (fees ${fees}) moved pix.balance by ${w.delta} cents` });
    if (debitCompletedTransfer.judge(windows).requirements.length > 0) {
      t.judge(debitCompletedTransfer, windows);
      t.run.note(windows[windows.length - 1]?.text ?? '');
      return;
    }
  }
  t.run.note(`undecided: ${windows.map((w) => w.text).join('; ')}`);
});

check('a transfer just above the balance is not completed', {
  id: 'gateway.separation.complete-just-above-balance', api: 'gateway', area: 'PIX transfers', severity: 'critical',
  rules: [...MOVES_MONEY, refuseUncoveredCompletion],
}, async (t) => {
  // "sandbox balance covers the amount", read in cents, not reais (a units mix-up lets amounts up to
  // 100 times the balance through). The amount is 50 times the funded balance; a 2xx that leaves the
  // balance NEGATIVE proves the completion was not covered, whatever other files credited meanwhile
  // (a completion a concurrent credit covered leaves it at or above zero: nothing is decided then).
  const gw = t.gateway();
  if (!(await fundSandbox(gw, t.run, 20_000))) return;
  const balance = await readPixBalance(gw);
  if (balance.cents === undefined || balance.cents <= 0) return t.notRun('gateway', 'the sandbox balance could not be read or is not positive');
  const amount = balance.cents * 50;
  const created = await gw.createTransfer(transferBody(amount));
  const data = dataOf(created);
  if (!is2xx(created) || typeof data?.id !== 'string' || data.status !== 'banking_processing') {
    return t.notRun('gateway', `a transfer of ${amount} cents was not created banking_processing (HTTP ${created.status}, ${show(data?.status)}): maximum amounts and manual review are not shown`);
  }
  const complete = await gw.completeTransfer(data.id);
  const after = await readPixBalance(gw);
  t.judge(refuseUncoveredCompletion, { case: 'balance-after', answer: complete, amount, before: balance.cents, after: after.cents, afterExchange: after.response.exchange });
  t.run.note(`transfer of ${amount} cents over a balance of ${balance.cents}: HTTP ${complete.status}, balance after ${show(after.cents)}`);
});

