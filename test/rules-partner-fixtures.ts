/** Fake observations for the partner rule unit tests (no HTTP). */
import type { Exchange } from '../harness/core/exchange.js';
import type { Judgement } from '../harness/rules/finding.js';
import { computeBrCodeCrc } from '../harness/rules/emv.js';
import { signPartner } from '../harness/webhooks/signatures.js';
import type { PartnerDelivery } from '../harness/rules/partner/index.js';

let seq = 0;

/** An answer as the partner client returns it: status, parsed JSON and the recorded exchange. */
export function answer(status: number, json?: unknown, url = 'https://psp.example/v1/business/pix-charges'): { status: number; json: unknown; exchange: Exchange } {
  seq += 1;
  const body = json === undefined ? '' : JSON.stringify(json);
  const exchange: Exchange = {
    seq,
    api: 'partner',
    request: { method: 'POST', url, headers: {}, body: '' },
    response: { status, headers: json === undefined ? {} : { 'content-type': 'application/json' }, body, ...(json === undefined ? {} : { json }) },
    startedAt: new Date(Date.UTC(2026, 10, 22, 10, 0, 0)).toISOString(),
    durationMs: 20,
    curl: 'curl …',
  } as Exchange;
  return { status, json, exchange };
}

function tlv(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** A BR Code; `dynamic` puts a payload URL in 26.25, otherwise a key in 26.01 (static). */
export function brCode(amountCents: number, options: { dynamic?: boolean; crc?: string } = {}): string {
  const pix = options.dynamic === false ? tlv('00', 'br.gov.bcb.pix') + tlv('01', 'key@example.com') : tlv('00', 'br.gov.bcb.pix') + tlv('25', 'pix.example.com/qr/v2/abc123');
  const amount = `${Math.trunc(amountCents / 100)}.${String(amountCents % 100).padStart(2, '0')}`;
  const prefix = tlv('00', '01') + tlv('01', '12') + tlv('26', pix) + tlv('52', '0000') + tlv('53', '986') + tlv('54', amount) + tlv('58', 'BR') + tlv('59', 'CONFORMANCE') + tlv('60', 'SAO PAULO') + tlv('62', tlv('05', '***')) + '6304';
  return prefix + (options.crc ?? computeBrCodeCrc(prefix));
}

/** A conforming created charge for `amount`. */
export function charge(amount = 1050, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'chg_1',
    status: 'pending',
    amount_cents: amount,
    external_ref: 'ref-1',
    qr_code: brCode(amount),
    created_at: '2026-11-22T10:00:00Z',
    expires_at: '2026-11-22T11:00:00Z',
    ...extra,
  };
}

export const T = 1763805600; // 2026-11-22T10:00:00Z

/** A partner delivery of `event` signed with `secret` at `t`, arriving `lateS` seconds later. */
export function delivery(event: unknown, options: { secret?: string; t?: number | string; lateS?: number; header?: string } = {}): PartnerDelivery {
  const body = JSON.stringify(event);
  const t = options.t ?? T;
  const header = options.header ?? signPartner({ secret: options.secret ?? 'whsec', timestamp: t, body });
  return { seq: 1, headers: { 'x-service-signature': header }, rawBody: Buffer.from(body), bodyText: body, json: event, receivedAt: (T + (options.lateS ?? 1)) * 1000 };
}

export function codes(j: Judgement): string[] {
  return j.findings.map((f) => f.code);
}

export function severities(j: Judgement): string[] {
  return j.findings.map((f) => `${f.code}:${f.severity}`);
}
