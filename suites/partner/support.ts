/**
 * Helpers shared by the partner suite (suites/partner/*.test.ts). Suite-side only: never reads the
 * reference or ../shared. Everything here is tolerant where partner-cashin-api.md leaves a choice
 * open ("not shown": list envelope, cancel/pay bodies, null vs absent fields, extra fields).
 *
 * Concurrency: vitest runs the partner files in parallel workers against ONE account, so nothing
 * here assumes global state. Charges carry a unique `external_ref` (webhook payloads carry no
 * charge id, so events are matched by it) and lists/statements are read relative to our own data.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { CheckTools, RunTools } from '../../harness/run/check.js';
import type { CheckRun } from '../../harness/run/check-run.js';
import type { ApiResponse, PartnerChargeRequest, PartnerClient } from '../../harness/http/partner-client.js';
import type { Finding } from '../../harness/rules/finding.js';
import {
  expectStatus,
  makeFinding,
  show,
  verifyEmvAmount,
  verifyEmvCrc,
  verifyEmvDynamic,
  verifyEmvStructure,
  verifyPartnerErrorShape,
  verifyPartnerWebhookSignature,
  verifyUtcTimestamp,
} from '../../harness/rules/index.js';
import type { CheckContext, StatusExpectation } from '../../harness/rules/index.js';
import { verifyPartnerSignature, PARTNER_SIGNATURE_HEADER } from '../../harness/webhooks/signatures.js';
import type { Delivery } from '../../harness/webhooks/types.js';
import type { ReceiverClient } from '../../harness/webhooks/receiver-client.js';
import { email, validAmount, asciiText } from '../../generators/index.js';
import { isRecord } from '../../harness/json.js';

export type Json = Record<string, unknown>;

export const STATES = ['pending', 'paid', 'expired', 'canceled'] as const;

/** The partner webhook secret; the check is not run without one. */
export function webhookSecret(t: CheckTools): string {
  const secret = t.target.partner?.webhookSecret;
  if (!secret) return t.notRun('partner.webhooks', 'PARTNER_WEBHOOK_SECRET not set');
  return secret;
}

/** Where the partner webhook is registered (harness/config/target.ts: `${callback.publicUrl}/partner`). */
export const PARTNER_WEBHOOK_PATH = '/partner';

/** How long a check waits for a webhook that should follow a state change (no fixed sleep). */
export const WEBHOOK_WAIT_MS = 20_000;

export { isRecord };

/** A unique caller label: `external_ref` is how our events and charges are told apart from other workers'. */
export function uniqueRef(tag: string): string {
  return `ptc-${tag}-${randomUUID()}`;
}

/** A fresh amount in a range other checks do not use by accident (unique enough to find a posting). */
export function distinctiveAmount(): number {
  return 7_000_000 + Math.floor(Math.random() * 2_000_000);
}

export function ctxOf(requirements: string[], exchanges: ApiResponse['exchange'][] = [], extra: Partial<CheckContext> = {}): CheckContext {
  return { requirements, exchanges, ...extra };
}

/** Records the status finding; true when the status matched. `otherClientError: 'warning'`: another 4xx only warns. */
export function status(run: CheckRun, r: ApiResponse, expected: StatusExpectation, requirements: string[], otherClientError?: 'warning'): boolean {
  const finding = expectStatus(r.exchange, expected, ctxOf(requirements), otherClientError ? { otherClientError } : {});
  run.record(finding);
  return finding === undefined;
}

export function is2xx(r: ApiResponse): boolean {
  return r.status >= 200 && r.status <= 299;
}

/** `{detail}` on an error answer ("Errors: Body: `{detail: <readable message>}`"). */
export function errorShape(run: CheckRun, r: ApiResponse, requirements: string[] = ['PT-ERR-DETAIL-SHAPE']): void {
  run.record(verifyPartnerErrorShape(r.json, ctxOf(requirements, [r.exchange])));
}

/**
 * An exact documented error status with `{detail}`. 5xx is always a failure, 429 a warning (in
 * expectStatus); any other status is a failure because the contract fixes this one.
 */
export function expectError(run: CheckRun, r: ApiResponse, code: number, requirements: string[]): boolean {
  const ok = status(run, r, code, requirements);
  if (r.status === code) errorShape(run, r, ['PT-ERR-DETAIL-SHAPE', ...requirements]);
  return ok;
}

/** A body the contract accepts: amount > 0 and a unique external_ref. */
export function chargeBody(tag: string, extra: Partial<PartnerChargeRequest> = {}): PartnerChargeRequest {
  return { amount_cents: 1 + Math.floor(Math.random() * 99_999), description: `conformance ${tag}`, external_ref: uniqueRef(tag), ...extra };
}

/** Valid creation bodies: generated amounts, optional description/e-mail/expiry, a unique external_ref. */
export function validChargeBody(tag: string): Arbitrary<PartnerChargeRequest> {
  return fc
    .record(
      {
        amount_cents: fc.oneof(fc.constantFrom(1, 2, 99, 100, 101, 1050), validAmount({ min: 1, max: 50_000_000 })),
        description: asciiText({ min: 1, max: 300 }),
        customer_email: email(),
        expires_in_seconds: fc.oneof(fc.constantFrom(60, 61, 3600, 86_399, 86_400), fc.integer({ min: 60, max: 86_400 })),
        // surrounding and inner whitespace and punctuation: "returned unchanged" means byte for byte
        padding: fc.constantFrom('', ' ', '  ', '\t'),
      },
      { requiredKeys: ['amount_cents', 'padding'] },
    )
    .map(({ padding, ...rest }) => ({ ...rest, external_ref: `${padding}${uniqueRef(tag)} #${padding}`.slice(0, 120) }));
}

export interface Created {
  response: ApiResponse;
  /** the charge when the creation answered 200 with an object that has an id */
  charge?: Json;
  id?: string;
}

/** POST /business/pix-charges, recording "200: PIX charge." (a different status is a failure). */
export async function createCharge(run: CheckRun, client: PartnerClient, body: PartnerChargeRequest | unknown, opts: { idempotencyKey?: string } = {}): Promise<Created> {
  const response = await client.createCharge(body, opts);
  status(run, response, 200, ['PT-CHARGE-CREATE-200']);
  const charge = isRecord(response.json) ? response.json : undefined;
  const id = charge && typeof charge.id === 'string' && charge.id !== '' ? charge.id : undefined;
  return { response, ...(charge && response.status === 200 ? { charge } : {}), ...(id && response.status === 200 ? { id } : {}) };
}

/** Creates a charge or stops the check as "not run" (a precondition the target did not provide). */
export async function mustCreate(t: RunTools & { notRun(capability: string, reason: string): never }, body: PartnerChargeRequest, client: PartnerClient = t.partner()): Promise<{ id: string; charge: Json; response: ApiResponse }> {
  const created = await createCharge(t.run, client, body);
  if (!created.id || !created.charge) {
    // the creation failure is already recorded as a finding; the rest of the check cannot run
    t.run.note(`precondition: charge creation answered ${created.response.status}; later steps skipped`);
    if (t.run.failures.length) return t.run.finish() as never;
    t.notRun('partner', `charge creation answered ${created.response.status}`);
  }
  return { id: created.id, charge: created.charge, response: created.response };
}

/** GET by id; returns the status string when the lookup answered 2xx. */
export async function lookupState(run: CheckRun, client: PartnerClient, id: string, requirements: string[] = ['PT-CHARGE-GET-CURRENT']): Promise<{ response: ApiResponse; state?: string; charge?: Json }> {
  const response = await client.getCharge(id);
  status(run, response, '2xx', requirements);
  const charge = isRecord(response.json) ? response.json : undefined;
  const state = charge && typeof charge.status === 'string' ? charge.status : undefined;
  return { response, ...(state !== undefined ? { state } : {}), ...(charge ? { charge } : {}) };
}

/** Records a failure unless the lookup shows `expected`. */
export function expectState(run: CheckRun, seen: { response: ApiResponse; state?: string }, expected: string, requirements: string[], why: string): boolean {
  if (seen.state === expected) return true;
  if (seen.response.status === 429 || seen.response.status === 0) return false; // already recorded
  run.record(
    makeFinding(ctxOf(requirements, [seen.response.exchange]), {
      code: 'charge.state',
      title: `the charge is not ${expected} ${why}`,
      severity: 'failure',
      expected: `status "${expected}"`,
      actual: `HTTP ${seen.response.status}, status ${show(seen.state)}`,
    }),
  );
  return false;
}

/** Looks for image-like values ("No image is returned"): data:image URIs or base64 PNG/JPEG. */
export function imageLikeFields(charge: Json): string[] {
  return Object.entries(charge)
    .filter(([, v]) => typeof v === 'string' && (/^data:image\//i.test(v) || /^(iVBORw0KGgo|\/9j\/)/.test(v)))
    .map(([k]) => k);
}

/**
 * The charge as returned on creation: documented fields (types are also validated against
 * specs/partner.openapi.yaml by every exchange), `pending`, the BR Code (structure, CRC, amount),
 * UTC timestamps and the external_ref unchanged.
 */
export function verifyCreatedCharge(run: CheckRun, r: ApiResponse, charge: Json, sent: PartnerChargeRequest): void {
  const ex = [r.exchange];
  if (charge.status !== 'pending') {
    run.record(makeFinding(ctxOf(['PT-CHARGE-CREATE-PENDING'], ex), { code: 'charge.not-pending', title: 'a new charge is not pending', severity: 'failure', expected: 'status "pending"', actual: `status ${show(charge.status)}` }));
  }
  if (charge.amount_cents !== sent.amount_cents) {
    run.record(makeFinding(ctxOf(['PT-CHARGE-FIELD-AMOUNT'], ex), { code: 'charge.amount', title: 'the charge amount differs from the amount requested', severity: 'failure', expected: `amount_cents ${sent.amount_cents}`, actual: `amount_cents ${show(charge.amount_cents)}` }));
  }
  verifyExternalRef(run, r, charge.external_ref, sent.external_ref, 'on creation');
  const qrCtx = ctxOf(['PT-CHARGE-QR-EMV', 'PT-CHARGE-FIELD-QR'], ex, { subject: 'qr_code', pointer: '/qr_code' });
  const structure = verifyEmvStructure(charge.qr_code, qrCtx);
  run.record(structure, verifyEmvCrc(charge.qr_code, qrCtx));
  if (!structure) run.record(verifyEmvAmount(charge.qr_code, sent.amount_cents, qrCtx));
  // "dynamic" does not say which BR Code markers it implies: a warning (PT-CHARGE-QR-DYNAMIC ambiguity)
  run.record(verifyEmvDynamic(charge.qr_code, ctxOf(['PT-CHARGE-QR-DYNAMIC'], ex, { subject: 'qr_code', severity: 'warning' })));
  for (const field of ['created_at', 'expires_at'] as const) {
    run.record(verifyUtcTimestamp(charge[field], ctxOf(['PT-CHARGE-TIMESTAMPS-UTC'], ex, { subject: field, pointer: `/${field}` })));
  }
  const images = imageLikeFields(charge);
  if (images.length) {
    run.record(makeFinding(ctxOf(['PT-CHARGE-NO-IMAGE'], ex), { code: 'charge.image', title: 'the charge carries an image-like value', severity: 'warning', expected: 'no QR image ("the client generates the QR image")', actual: `image-like value in ${images.join(', ')}` }));
  }
  if (sent.customer_email !== undefined && charge.customer_email !== sent.customer_email) {
    run.note(`customer_email sent ${show(sent.customer_email)}, returned ${show(charge.customer_email)} (the contract does not say it is echoed)`);
  }
  if (typeof charge.provider === 'string') run.note(`provider = ${show(charge.provider)}`);
}

/** "external_ref … returned unchanged on lookups and in webhooks" (byte for byte). */
export function verifyExternalRef(run: CheckRun, r: ApiResponse | undefined, seen: unknown, sent: string | undefined, where: string): void {
  if (sent === undefined || seen === sent) return;
  run.record(
    makeFinding(ctxOf(['PT-CHARGE-EXTREF-UNCHANGED'], r ? [r.exchange] : []), {
      code: 'charge.external-ref-changed',
      title: `external_ref is not returned unchanged ${where}`,
      severity: 'failure',
      expected: `external_ref ${show(sent)}`,
      actual: `external_ref ${show(seen)}`,
    }),
  );
}

// ── lists ────────────────────────────────────────────────────────────────────────────────────────

export interface LocatedList {
  items: Json[];
  /** how the array was found, e.g. `top-level array`, `property "data"` */
  shape: string;
}

/**
 * Finds the array of charges in a list answer ("Response envelope and pagination: not shown"): a
 * top-level array, or the single property (one level deep, or two) holding an array of objects.
 */
export function locateChargeArray(json: unknown): LocatedList | undefined {
  const objects = (a: unknown[]): Json[] | undefined => (a.every(isRecord) ? (a as Json[]) : undefined);
  if (Array.isArray(json)) {
    const items = objects(json);
    return items ? { items, shape: 'top-level array' } : undefined;
  }
  if (!isRecord(json)) return undefined;
  const candidates: LocatedList[] = [];
  for (const [key, value] of Object.entries(json)) {
    if (Array.isArray(value)) {
      const items = objects(value);
      if (items) candidates.push({ items, shape: `property "${key}"` });
    } else if (isRecord(value)) {
      for (const [inner, v] of Object.entries(value)) {
        const items = Array.isArray(v) ? objects(v) : undefined;
        if (items) candidates.push({ items, shape: `property "${key}.${inner}"` });
      }
    }
  }
  // prefer the candidate whose objects look like charges; several equally good: ambiguous
  const charges = candidates.filter((c) => c.items.length === 0 || c.items.some((i) => 'status' in i && ('id' in i || 'amount_cents' in i)));
  if (charges.length === 1) return charges[0];
  const nonEmpty = charges.filter((c) => c.items.length > 0);
  return nonEmpty.length === 1 ? nonEmpty[0] : candidates.length === 1 ? candidates[0] : undefined;
}

/** Lists (optionally filtered) and locates the array; records a failure when no array of charges is found. */
export async function listCharges(run: CheckRun, client: PartnerClient, filter: { status?: string } = {}): Promise<{ response: ApiResponse; list?: LocatedList }> {
  const response = await client.listCharges(filter);
  if (!status(run, response, '2xx', ['PT-LIST-ACCOUNT-SCOPE'])) return { response };
  const list = locateChargeArray(response.json);
  if (!list) {
    run.record(
      makeFinding(ctxOf(['PT-LIST-ACCOUNT-SCOPE'], [response.exchange]), {
        code: 'list.no-array',
        title: 'the list answer holds no identifiable array of charges',
        severity: 'failure',
        expected: 'the charges as a JSON array (top level or in one envelope property; the envelope is not shown)',
        actual: show(response.json, 300),
      }),
    );
    return { response };
  }
  run.note(`list envelope: ${list.shape} (${list.items.length} item(s)${filter.status !== undefined ? `, status=${filter.status}` : ''})`);
  return { response, list };
}

// ── finance ──────────────────────────────────────────────────────────────────────────────────────

export interface Entry {
  account_code: unknown;
  direction: unknown;
  amount_cents: unknown;
}

export function postingsOf(statement: unknown): Json[] {
  if (!isRecord(statement) || !Array.isArray(statement.transactions)) return [];
  return statement.transactions.filter(isRecord);
}

export function entriesOf(posting: Json): Entry[] {
  return Array.isArray(posting.entries) ? (posting.entries.filter(isRecord) as unknown as Entry[]) : [];
}

/** True when any string field of the posting (id, description, event_type, entries) mentions `needle`. */
export function postingMentions(posting: Json, needle: string): boolean {
  return JSON.stringify(posting).includes(needle);
}

/** Sum of the absolute entry amounts: no posting can move a balance by more than this. */
export function postingVolume(posting: Json): number {
  return entriesOf(posting).reduce((n, e) => n + (typeof e.amount_cents === 'number' ? Math.abs(e.amount_cents) : 0), 0);
}

export async function getStatement(run: CheckRun, client: PartnerClient): Promise<{ response: ApiResponse; statement?: Json }> {
  const response = await client.getFinance();
  if (!status(run, response, '2xx', ['PT-FIN-GET'])) return { response };
  return isRecord(response.json) ? { response, statement: response.json } : { response };
}

// ── webhooks ─────────────────────────────────────────────────────────────────────────────────────

export interface PartnerEvent {
  id?: unknown;
  type?: unknown;
  created_at?: unknown;
  data?: Json;
}

export function eventOf(d: Delivery): PartnerEvent | undefined {
  return isRecord(d.json) ? (d.json as PartnerEvent) : undefined;
}

/** The ASCII unique token inside one of our labels (`ptc-<tag>-<uuid>`): survives any JSON escaping. */
export function refToken(ref: string): string {
  return /ptc-[A-Za-z0-9-]*?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(ref)?.[0] ?? ref;
}

/**
 * Our deliveries to `/partner` of `type`: the body mentions our label's unique token (so an event
 * whose external_ref was altered, e.g. trimmed, is still found and judged, not reported missing).
 */
export function eventMatcher(ref: string, type?: string): (d: Delivery) => boolean {
  const token = refToken(ref);
  return (d) => {
    const event = eventOf(d);
    const mentions = d.bodyText.includes(token) || (event !== undefined && JSON.stringify(event).includes(token));
    if (!mentions) return false;
    return type === undefined || event?.type === type;
  };
}

export async function waitForEvent(receiver: ReceiverClient, marker: string, type: string, timeoutMs = WEBHOOK_WAIT_MS): Promise<Delivery | undefined> {
  return receiver.waitFor(eventMatcher(marker, type), { path: PARTNER_WEBHOOK_PATH, timeoutMs });
}

/**
 * Signature of one partner delivery. HMAC over `<t>.<raw body>` → failure otherwise
 * (PT-WH-SIGNATURE, PT-WH-RAW-BODY, PT-WH-SIGNATURE-HEADER). Ambiguous parts are warnings: a
 * millisecond `t` (PT-WH-TIMESTAMP-EPOCH) and a `t` more than 300 s from arrival (PT-WH-TOLERANCE;
 * clock skew between service and receiver is unknown).
 */
export function signatureFindings(d: Delivery, secret: string, options: { toleranceRequirement?: string } = {}): Finding[] {
  const findings: Finding[] = [];
  const base = verifyPartnerWebhookSignature(d, secret, ctxOf(['PT-WH-SIGNATURE', 'PT-WH-RAW-BODY', 'PT-WH-SIGNATURE-HEADER']), { toleranceSeconds: Number.MAX_SAFE_INTEGER });
  if (base) {
    if (base.code === 'signature.timestamp-ms') findings.push({ ...base, severity: 'warning', requirements: ['PT-WH-TIMESTAMP-EPOCH'] });
    else findings.push(base);
  }
  const result = verifyPartnerSignature({ header: d.headers[PARTNER_SIGNATURE_HEADER], rawBody: d.rawBody, secret, receivedAt: d.receivedAt });
  if (result.matchedOver === 'raw-body' && result.code === 'signature.timestamp-outside-tolerance' && base?.code !== 'signature.timestamp-ms') {
    findings.push(
      makeFinding(ctxOf([options.toleranceRequirement ?? 'PT-WH-TOLERANCE']), {
        code: 'signature.timestamp-outside-tolerance',
        title: 'the webhook signature timestamp is outside the 300 s tolerance',
        severity: 'warning',
        expected: 't within 300 s of arrival',
        actual: `${result.detail} (delivery #${d.seq})`,
      }),
    );
  }
  return findings;
}

/**
 * Body `{id, type, created_at, data{amount_cents, e2e_id, external_ref}}` of one of our events:
 * type, amount and external_ref as expected (failures), e2e_id of a paid event (warning if absent).
 */
export function eventFindings(d: Delivery, expected: { type: string; amount: number; externalRef: string; e2eId?: unknown }): Finding[] {
  const findings: Finding[] = [];
  const event = eventOf(d);
  const where = `delivery #${d.seq}`;
  const fail = (requirements: string[], code: string, title: string, exp: string, actual: string, severity: 'failure' | 'warning' = 'failure'): void => {
    findings.push(makeFinding(ctxOf(requirements), { code, title, severity, expected: exp, actual: `${actual} (${where})` }));
  };
  if (!event || !isRecord(event.data)) {
    fail(['PT-WH-BODY-SHAPE'], 'webhook.shape', 'the webhook body is not {id, type, created_at, data{…}}', '{id, type, created_at, data{amount_cents, e2e_id, external_ref}}', show(d.bodyText, 300));
    return findings;
  }
  if (typeof event.id !== 'string' || event.id === '') fail(['PT-WH-BODY-SHAPE'], 'webhook.id', 'the webhook has no string id', 'id: non-empty string', `id ${show(event.id)}`);
  if (event.type !== expected.type) fail(['PT-WH-EVENT-TYPES'], 'webhook.type', `the event type is not ${expected.type}`, `type "${expected.type}"`, `type ${show(event.type)}`);
  if (event.data.amount_cents !== expected.amount) fail(['PT-WH-BODY-SHAPE'], 'webhook.amount', 'the event amount differs from the charge', `data.amount_cents ${expected.amount}`, `data.amount_cents ${show(event.data.amount_cents)}`);
  if (event.data.external_ref !== expected.externalRef) {
    fail(['PT-CHARGE-EXTREF-UNCHANGED', 'PT-WH-DATA-FIELDS'], 'webhook.external-ref', 'the event external_ref is not the one sent, unchanged', `data.external_ref ${show(expected.externalRef)}`, `data.external_ref ${show(event.data.external_ref)}`);
  }
  if (expected.type === 'business.pix.paid') {
    const e2e = event.data.e2e_id;
    if (typeof e2e !== 'string' || e2e === '') {
      fail(['PT-WH-DATA-FIELDS'], 'webhook.e2e-missing', 'the paid event carries no e2e_id', 'data.e2e_id: the end-to-end id', `data.e2e_id ${show(e2e)}`, 'warning');
    } else if (typeof expected.e2eId === 'string' && expected.e2eId !== e2e) {
      fail(['PT-WH-DATA-FIELDS', 'PT-CHARGE-FIELD-E2E'], 'webhook.e2e-differs', 'the paid event e2e_id differs from the charge e2e_id', `data.e2e_id ${show(expected.e2eId)}`, `data.e2e_id ${show(e2e)}`);
    }
  }
  return findings;
}

/** Bounded poll (no fixed sleep): resolves when `probe` returns a value or `deadline` passes. */
export async function pollUntil<T>(probe: () => Promise<T | undefined>, deadlineMs: number, intervalMs = 250): Promise<T | undefined> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    const left = deadlineMs - Date.now();
    if (left <= 0) return undefined;
    await new Promise((r) => setTimeout(r, Math.min(intervalMs, left)));
  }
}

/** Milliseconds until an ISO timestamp (negative when past); undefined when it does not parse. */
export function msUntil(iso: unknown): number | undefined {
  if (typeof iso !== 'string') return undefined;
  const at = Date.parse(iso);
  return Number.isNaN(at) ? undefined : at - Date.now();
}
