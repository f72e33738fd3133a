// The states relation (harness/rules/state-matrix.ts): cells derived from the specs' lookups, action
// routes and the catalogue's transition rows (pinned here, so a spec change shows up); the rules that
// cover them; and the ledger reading of a refused cancel.
import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { GATEWAY_STATE_CELLS, GATEWAY_STATES } from '../harness/rules/gateway/state-matrix.js';
import { ensureChargePaid, refusePayOfPaidCharge } from '../harness/rules/gateway/pix-charges.js';
import { ensureTransferCompleted, refuseCompletionOfCompleted } from '../harness/rules/gateway/pix-transfers.js';
import {
  cancelPendingCharge,
  CHARGE_STATE_CELLS,
  CHARGE_STATE_MATRIX,
  confirmPendingCharge,
  keepPaidTerminal,
  moveOnceFromPending,
  refuseCancelUnlessPending,
  refusePayAfterExpiry,
  type CaptureReading,
} from '../harness/rules/partner/index.js';
import { stateCells, stateResources, type CatalogueEntry } from '../harness/rules/state-matrix.js';
import { answer as gwAnswer } from './rules-gateway-fixtures.js';
import { answer as ptAnswer, codes as ptCodes } from './rules-partner-fixtures.js';

const PAY = 'POST /api/v1/pix/in/qrcode/{transactionId}/pay';
const COMPLETE = 'POST /api/v1/pix/out/pixkey/{transferId}/complete';
const CANCEL = 'POST /business/pix-charges/{id}/cancel';
const PT_PAY = 'POST /business/pix-charges/{id}/pay';

describe('state cells, from the specs and the catalogue', () => {
  it('gateway: PIX charge states × /pay, transfer states × /complete; no route reaches refused, refunded or a pending transfer', () => {
    expect(GATEWAY_STATE_CELLS.map((c) => [c.cell, c.expect, c.to ?? '', c.reach])).toEqual([
      [`pending · ${PAY}`, 'allowed', 'paid', 'run'],
      [`paid · ${PAY}`, 'forbidden', '', 'run'],
      [`refused · ${PAY}`, 'forbidden', '', 'none'],
      [`refunded · ${PAY}`, 'forbidden', '', 'none'],
      [`pending · ${COMPLETE}`, 'forbidden', '', 'none'],
      [`banking_processing · ${COMPLETE}`, 'allowed', 'completed', 'run'],
      [`completed · ${COMPLETE}`, 'forbidden', '', 'run'],
      [`refused · ${COMPLETE}`, 'forbidden', '', 'none'],
    ]);
    expect(GATEWAY_STATES.timerCells).toEqual([]);
    expect(Object.keys(GATEWAY_STATES.untryable ?? {})).toEqual([`refused · ${PAY}`, `refunded · ${PAY}`, `pending · ${COMPLETE}`, `refused · ${COMPLETE}`]);
    expect(GATEWAY_STATES.untryable?.[`pending · ${COMPLETE}`]).toMatch(/manual review/);
  });
  it('partner: charge states × cancel and pay; expired only past expires_at (timer)', () => {
    expect(CHARGE_STATE_CELLS.map((c) => [c.cell, c.expect, c.to ?? '', c.reach])).toEqual([
      [`pending · ${CANCEL}`, 'allowed', 'canceled', 'run'],
      [`pending · ${PT_PAY}`, 'allowed', 'paid', 'run'],
      [`paid · ${CANCEL}`, 'forbidden', '', 'run'],
      [`paid · ${PT_PAY}`, 'forbidden', '', 'run'],
      [`expired · ${CANCEL}`, 'forbidden', '', 'timer'],
      [`expired · ${PT_PAY}`, 'forbidden', '', 'timer'],
      [`canceled · ${CANCEL}`, 'forbidden', '', 'run'],
      [`canceled · ${PT_PAY}`, 'forbidden', '', 'run'],
    ]);
    expect(CHARGE_STATE_MATRIX.timerCells).toEqual([`expired · ${CANCEL}`, `expired · ${PT_PAY}`]);
    expect(CHARGE_STATE_MATRIX.untryable).toEqual({});
  });
  it('derivation: status enum through envelopes and $ref, rows named by operations and responses, creation sentence, timer rows of the lookup, unreachable states', () => {
    const doc = {
      paths: {
        '/things': { post: { 'x-requirement': 'X-CREATED' } },
        '/things/{id}': { get: { 'x-requirement': ['X-LAZY'], responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Env' } } } } } } },
        '/things/{id}/go': { post: { responses: { '200': { 'x-requirement': 'X-GO' }, '409': { 'x-requirement': ['X-FIELD'] } } } },
        '/things/{id}/go/deeper': { post: {} },
        '/other/{id}': { get: {}, delete: {} },
      },
      components: { schemas: { Env: { properties: { data: { allOf: [{ $ref: '#/components/schemas/Thing' }] } } }, Thing: { properties: { status: { enum: ['new', 'done', 'late', 'lost'] } } } } },
    };
    const catalogue: CatalogueEntry[] = [
      { id: 'X-CREATED', quote: 'A thing is created in `new`', kind: 'checkable' },
      { id: 'X-GO', quote: 'new | POST …/go | ok | done | event', kind: 'checkable' },
      { id: 'X-LAZY', quote: 'new | first lookup after the deadline | none | late', kind: 'timer' },
      { id: 'X-FIELD', quote: 'name | string | yes | max 3', kind: 'checkable' },
    ];
    const resources = stateResources(doc, catalogue);
    expect(resources.map((r) => [r.path, r.states, r.initial, r.actions.map((a) => a.verb)])).toEqual([['/things/{id}', ['new', 'done', 'late', 'lost'], ['new'], ['go']]]);
    expect(stateCells(resources).map((c) => `${c.state}:${c.expect}:${c.reach}`)).toEqual(['new:allowed:run', 'done:forbidden:run', 'late:forbidden:timer', 'lost:forbidden:none']);
  });
});

describe('the rules judging the pairs cover their cell', () => {
  const cells = (j: { covered?: readonly { relation: string; cells: readonly string[] }[] }): string[] => (j.covered ?? []).flatMap((c) => [...c.cells]);
  it('gateway: /pay of a pending and of a paid charge, /complete of a banking_processing (or held pending) and of a completed transfer', () => {
    expect(cells(ensureChargePaid.judge({ answer: gwAnswer(200, { data: { id: 'c', status: 'paid', endToEndId: 'E1' } }), chargeId: 'c' }))).toEqual([`pending · ${PAY}`]);
    expect(cells(refusePayOfPaidCharge.judge(gwAnswer(400, { success: false, message: 'no' })))).toEqual([`paid · ${PAY}`]);
    expect(cells(ensureTransferCompleted.judge({ case: 'answer', answer: gwAnswer(400, { message: 'review' }), funding: 'pending' }))).toEqual([`pending · ${COMPLETE}`]);
    expect(cells(ensureTransferCompleted.judge({ case: 'answer', answer: gwAnswer(400, { message: 'no' }), funding: 'shared' }))).toEqual([`banking_processing · ${COMPLETE}`]);
    expect(cells(refuseCompletionOfCompleted.judge(gwAnswer(400, { message: 'done' })))).toEqual([`completed · ${COMPLETE}`]);
  });
  it('partner: every pay and cancel, by the state the charge was in', () => {
    const ok = ptAnswer(200, { id: 'c' });
    const conflict = ptAnswer(409, { detail: 'no' });
    expect(cells(confirmPendingCharge.judge({ kind: 'pay', answer: ok }))).toEqual([`pending · ${PT_PAY}`]);
    expect(cells(cancelPendingCharge.judge({ kind: 'cancel', answer: ok }))).toEqual([`pending · ${CANCEL}`]);
    expect(cells(refuseCancelUnlessPending.judge({ kind: 'cancel', answer: conflict, state: 'paid' }))).toEqual([`paid · ${CANCEL}`]);
    expect(cells(refuseCancelUnlessPending.judge({ kind: 'cancel', answer: conflict, state: 'expired' }))).toEqual([`expired · ${CANCEL}`]);
    expect(cells(keepPaidTerminal.judge({ kind: 'pay', answer: conflict }))).toEqual([`paid · ${PT_PAY}`]);
    expect(cells(moveOnceFromPending.judge({ kind: 'pay', answer: conflict, state: 'canceled' }))).toEqual([`canceled · ${PT_PAY}`]);
    expect(cells(refusePayAfterExpiry.judge({ kind: 'pay', answer: conflict }))).toEqual([`expired · ${PT_PAY}`]);
    const unanswered = { status: 0, exchange: { ...ok.exchange, response: undefined } } as unknown as typeof ok;
    expect(cells(keepPaidTerminal.judge({ kind: 'pay', answer: unanswered }))).toEqual([]);
  });
});

describe('refuseCancelUnlessPending: the ledger around a refused cancel of a paid charge', () => {
  const capture = { id: 'p1', event_type: 'payment.captured', entries: [{ account_code: 'clearing', direction: 'debit', amount_cents: 1000 }, { account_code: 'merchant', direction: 'credit', amount_cents: 990 }, { account_code: 'fees', direction: 'credit', amount_cents: 10 }] };
  const mirror = (p: typeof capture, id: string): typeof capture => ({ id, event_type: 'refund.reversal', entries: p.entries.map((e) => ({ ...e, direction: e.direction === 'debit' ? 'credit' : 'debit' })) });
  const reading = (mine: unknown[]): CaptureReading => ({ charge: { id: 'c1' }, amount: 1000, concurrent: false, exchanges: [], fresh: mine as CaptureReading['mine'], mine: mine as CaptureReading['mine'] });
  const cancel = ptAnswer(409, { detail: 'paid' });
  it('the capture mirrored by a posting naming the charge fails', () => {
    const j = refuseCancelUnlessPending.judge({ kind: 'ledger', cancel, reading: reading([capture, mirror(capture, 'p2')]) });
    expect(ptCodes(j)).toEqual(['cancel.refused-but-reversed']);
    expect(j.findings[0]?.requirements).toEqual(['PT-CHARGE-CANCEL-409']);
  });
  it('the capture alone, a reserve hold and its release, a settlement: no finding', () => {
    const hold = { id: 'h1', event_type: 'reserve.hold', entries: [{ account_code: 'merchant', direction: 'debit', amount_cents: 50 }, { account_code: 'reserve', direction: 'credit', amount_cents: 50 }] };
    const settlement = { id: 's1', event_type: 'settlement', entries: [{ account_code: 'merchant', direction: 'debit', amount_cents: 990 }, { account_code: 'bank', direction: 'credit', amount_cents: 990 }] };
    expect(conforms(refuseCancelUnlessPending.judge({ kind: 'ledger', cancel, reading: reading([capture]) }))).toBe(true);
    expect(conforms(refuseCancelUnlessPending.judge({ kind: 'ledger', cancel, reading: reading([capture, hold, mirror(hold, 'h2'), settlement]) }))).toBe(true);
  });
  it('a cancel that was not refused, or a window not fully visible, decides nothing', () => {
    const both = reading([capture, mirror(capture, 'p2')]);
    expect(refuseCancelUnlessPending.judge({ kind: 'ledger', cancel: ptAnswer(200, {}), reading: both }).requirements).toEqual([]);
    const { fresh: _hidden, ...partial } = both;
    expect(refuseCancelUnlessPending.judge({ kind: 'ledger', cancel, reading: partial }).requirements).toEqual([]);
  });
});
