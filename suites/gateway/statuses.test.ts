/**
 * Gateway statuses and enums (gateway-api.md "Endpoints", "Errors", the request tables and the
 * Events table). The relations are derived from specs/gateway.openapi.yaml (harness/rules/statuses.ts):
 *
 * - statuses: every status a route lists is tried by the checks that provoke it with its stated
 *   cause (harness/rules/status.ts `judgeStatus` names the cells): no request here;
 * - response enums: every response the suite validates tries the enum values it carries
 *   (harness/rules/contract.ts): no request here;
 * - request enums: every documented request enum value, sent once in a valid request, below.
 *   Transfers move sandbox money only (the default sandbox pair).
 */
import { randomUUID } from 'node:crypto';
import { check } from '../../harness/run/check.js';
import type { ApiResponse, CardChargeRequest, PixChargeRequest, TransferRequest } from '../../harness/http/gateway-client.js';
import { HarnessError } from '../../harness/core/errors.js';
import { requestEnumCellsOf, type RequestEnumCell } from '../../harness/rules/statuses.js';
import { acceptDocumentedRequestEnums, type RequestEnumObservation } from '../../harness/rules/gateway/statuses.js';
import { removeWebhookOnDelete } from '../../harness/rules/gateway/webhooks.js';
import type { CardPart } from '../../harness/rules/gateway/card.js';
import type { TransferRow } from '../../harness/rules/gateway/pix-transfers.js';
import { cnpjCheckDigits, formatCnpj, formatCpf } from '../../generators/index.js';
import { cardChargeBody, dataOf, freshCpf, pixChargeBody } from './support.js';
import { receiverPath, transferBody } from './webhook-steps.js';

const AREA = 'Statuses and enums';

const PIX_IN = 'POST /api/v1/pix/in/qrcode';
const CARD = 'POST /api/v1/card';
const PIX_OUT = 'POST /api/v1/pix/out/pixkey';
const WEBHOOK = 'POST /api/v1/webhook';

function freshCnpj(): string {
  const base = `${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}0001`;
  return base + cnpjCheckDigits(base);
}

/** A valid key of each alternative the spec describes for `pixKey` (by its description). */
const PIX_KEY_EXAMPLES: Record<string, () => string> = {
  CPF: () => freshCpf(),
  'CNPJ (numeric or alphanumeric)': () => freshCnpj(),
  'CPF with punctuation (ambiguous)': () => formatCpf(freshCpf()),
  'CNPJ with punctuation (ambiguous)': () => formatCnpj(freshCnpj()),
  'e-mail': () => `payee.${randomUUID().slice(0, 8)}@example.com`,
  'phone with +55 prefix': () => '+5511987654321',
  'random key (UUID)': () => randomUUID(),
};

/** A request per route and cell: what it sends, and the cells it carries. */
type Planned =
  | { route: 'pix-charge'; cells: string[]; body: PixChargeRequest; edges: string[] }
  | { route: 'card'; cells: string[]; body: CardChargeRequest; edges: string[] }
  | { route: 'transfer'; cells: string[]; body: TransferRequest; open: boolean; edges: string[] }
  | { route: 'webhook'; cells: string[]; events: string[] };

function unknownCell(cell: RequestEnumCell): never {
  throw new HarnessError('statuses.values', `request enum cell "${cell.cell}": the suite has no valid request for it (the spec documents a value the suite does not know)`);
}

function documentOf(type: string): string {
  return type === 'cnpj' ? freshCnpj() : freshCpf();
}

/** `body` with the value at the dotted `field` replaced. */
function write<T extends object>(body: T, field: string, value: unknown): T {
  const [head, ...rest] = field.split('.') as [string, ...string[]];
  const record = body as Record<string, unknown>;
  const inner = typeof record[head] === 'object' && record[head] !== null ? (record[head] as object) : {};
  return { ...body, [head]: rest.length === 0 ? value : write(inner, rest.join('.'), value) } as T;
}

/** The range-edge cells of `operation`. */
function edgesOf(cells: readonly RequestEnumCell[], operation: string): RequestEnumCell[] {
  return cells.filter((c) => c.operation === operation && c.edge !== undefined);
}

function withEdges<T extends object>(body: T, edges: readonly RequestEnumCell[]): T {
  return edges.reduce((b, c) => write(b, c.field, c.edge?.number), body);
}

/**
 * One valid request per enum value (card currencies and document types paired), the range edges of
 * a route riding along with its first request: every cell of the relation that a run can try.
 */
function plan(cells: readonly RequestEnumCell[], tryable: (cell: RequestEnumCell) => boolean): Planned[] {
  const out: Planned[] = [];
  const values = cells.filter((c) => c.edge === undefined && tryable(c));
  const card = values.filter((c) => c.operation === CARD);
  const currencies = card.filter((c) => c.field === 'currency');
  const types = card.filter((c) => c.field === 'customer.documentType');
  for (const c of card) if (!currencies.includes(c) && !types.includes(c)) unknownCell(c);
  const edges = { card: edgesOf(cells, CARD), pix: edgesOf(cells, PIX_IN), transfer: edgesOf(cells, PIX_OUT) };
  for (let i = 0; i < Math.max(currencies.length, types.length); i++) {
    const currency = currencies[i] ?? currencies[0];
    const type = types[i] ?? types[0];
    const base = cardChargeBody();
    const riding = i === 0 ? edges.card : [];
    const body = { ...base, ...(currency ? { currency: currency.value } : {}), customer: { ...base.customer, ...(type ? { documentType: type.value } : {}) } } as CardChargeRequest;
    out.push({ route: 'card', cells: [currency, type, ...riding].flatMap((c) => (c ? [c.cell] : [])), body: withEdges(body, riding), edges: riding.map((c) => c.field) });
  }
  const brl = values.find((c) => c.operation === PIX_OUT && c.field === 'currency');
  let currencySent = false;
  let pixEdgesSent = false;
  let transferEdgesSent = false;
  for (const cell of values) {
    if (cell.operation === CARD) continue;
    if (cell.operation === PIX_IN && cell.field === 'customer.documentType') {
      const riding = pixEdgesSent ? [] : edges.pix;
      pixEdgesSent = true;
      const body = pixChargeBody();
      out.push({ route: 'pix-charge', cells: [cell.cell, ...riding.map((c) => c.cell)], body: withEdges({ ...body, customer: { ...body.customer, documentType: cell.value, document: documentOf(cell.value) } } as PixChargeRequest, riding), edges: riding.map((c) => c.field) });
    } else if (cell.operation === PIX_OUT && cell.field === 'pixKey') {
      const example = PIX_KEY_EXAMPLES[cell.value] ?? unknownCell(cell);
      // the documented currency and the range edges ride along with the first unambiguous key
      const first = !cell.ambiguous && !currencySent;
      const riding = first && !transferEdgesSent ? edges.transfer : [];
      if (first) currencySent = transferEdgesSent = true;
      const extra = [...(first && brl ? [brl] : []), ...riding];
      const body = withEdges({ ...transferBody(150, { pixKey: example() }), ...(first && brl ? { currency: brl.value } : {}) } as TransferRequest, riding);
      out.push({ route: 'transfer', cells: [cell.cell, ...extra.map((c) => c.cell)], body, open: cell.ambiguous, edges: riding.map((c) => c.field) });
    } else if (cell.operation === PIX_OUT && cell.field === 'currency') {
      continue; // sent with a key above
    } else if (cell.operation === WEBHOOK && cell.field === 'events[]') {
      out.push({ route: 'webhook', cells: [cell.cell], events: [cell.value] });
    } else {
      unknownCell(cell);
    }
  }
  const unsent = [...(brl && !currencySent ? [brl] : []), ...(pixEdgesSent ? [] : edges.pix), ...(transferEdgesSent ? [] : edges.transfer)];
  const edgeOps = new Set([CARD, PIX_IN, PIX_OUT]);
  for (const cell of [...unsent, ...cells.filter((c) => c.edge !== undefined && !edgeOps.has(c.operation))]) unknownCell(cell);
  return out;
}

/** The request-table parts a route's range edges exercise. */
const CARD_PARTS: Record<string, CardPart> = { amountInCents: 'amount', 'card.installments': 'installments' };

// "documentType | `cpf` or `cnpj`", "currency | `USD` or `EUR`", "currency | only `BRL`", "pixKey | CPF …
// or random key (UUID)", "`events` array of event names", "minimum 100", "minimum 1": each value,
// and each documented range edge, accepted in a valid request
check('every documented request enum value and range edge is accepted (document types, currencies, PIX key kinds, event names, minimums)', {
  id: 'gateway.enums.request-values',
  api: 'gateway',
  area: AREA,
  rules: [acceptDocumentedRequestEnums, removeWebhookOnDelete],
}, async (t) => {
  const gw = t.gateway();
  const untryable = acceptDocumentedRequestEnums.relation?.untryable ?? {};
  const planned = plan(requestEnumCellsOf('gateway'), (cell) => untryable[cell.cell] === undefined);
  const urls = new Map<Planned, string>();
  for (const p of planned) if (p.route === 'webhook') urls.set(p, t.callbackUrl(receiverPath()));
  // independent requests: sent together, judged in plan order
  const answers = await t.all(planned, (p): Promise<ApiResponse> => {
    switch (p.route) {
      case 'pix-charge':
        return gw.createPixCharge(p.body);
      case 'card':
        return gw.createCardCharge(p.body);
      case 'transfer':
        return gw.createTransfer(p.body);
      case 'webhook':
        return gw.createWebhook({ url: urls.get(p) ?? '', events: p.events });
    }
  });
  const created: (string | number)[] = [];
  for (const [i, p] of planned.entries()) {
    const answer = answers[i] as ApiResponse;
    let observation: RequestEnumObservation;
    if (p.route === 'pix-charge') {
      observation = { cells: p.cells, route: p.route, judged: { case: 'valid', body: p.body, answer, exercises: p.edges.includes('amountInCents') ? ['document', 'amount'] : ['document'] } };
    } else if (p.route === 'card') {
      observation = { cells: p.cells, route: p.route, judged: { case: 'valid', body: p.body, answer, exercises: ['currency', ...p.edges.flatMap((f) => (CARD_PARTS[f] ? [CARD_PARTS[f]] : []))] } };
    } else if (p.route === 'transfer') {
      const rows: TransferRow[] = ['pixKey', ...(p.body.currency !== undefined ? (['currency'] as const) : []), ...(p.edges.includes('amount') ? (['amount'] as const) : [])];
      observation = { cells: p.cells, route: p.route, judged: p.open ? { case: 'open', row: 'pixKey', what: `the key ${p.body.pixKey}`, answer } : { case: 'valid', body: p.body, answer, exercises: rows } };
    } else {
      const data = dataOf(answer.json);
      if (typeof data?.signatureSecret === 'string' && data.signatureSecret !== '') gw.http.redactor.register(data.signatureSecret, 'GATEWAY_WEBHOOK_SECRET');
      if (typeof data?.id === 'number' || typeof data?.id === 'string') created.push(data.id);
      observation = { cells: p.cells, route: p.route, judged: { answer, sent: { url: urls.get(p) ?? '', events: p.events } } };
    }
    t.judge(acceptDocumentedRequestEnums, observation);
    if (p.route === 'transfer' && p.open) t.run.note(`${p.cells.join(', ')}: HTTP ${answer.status}`);
  }
  // the webhooks registered here are removed (together)
  const removed = await t.all(created, (id) => gw.deleteWebhook(id));
  for (const r of removed) t.judge(removeWebhookOnDelete, { kind: 'delete', answer: r as ApiResponse });
});
