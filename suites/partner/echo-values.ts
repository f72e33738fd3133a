/**
 * The charge bodies the echo relation sends (harness/rules/partner/echo.ts): each documented range
 * at its edges (amount 1 and the largest a BR Code carries, description at 300 and external_ref at
 * 120 characters, ASCII and multi-byte), amounts whose reais have no exact binary form (1005, 2999,
 * 100000001), texts whose storage could trim or re-normalise them, and values drawn across the
 * ranges by fast-check with the run's seed; lifetimes at 60 and 86400 s, drawn, and the default. Suite-side: builds requests, judges nothing.
 */
import fc from 'fast-check';
import type { PartnerChargeRequest } from '../../harness/http/partner-client.js';
import { asciiTextOfLength, email, multibyteText } from '../../generators/index.js';
import { uniqueRef } from './support.js';

/** A body of the echo sample and what it is for (the notes name it). */
export interface EchoBody {
  label: string;
  body: PartnerChargeRequest;
  /** the contract leaves its acceptance open (a multi-byte text at the limit, an amount beyond everyday sizes): a refusal is noted */
  mayBeRefused?: string;
}

/** `text` cut or padded with `fill` to exactly `length` code points. */
function toCodePoints(text: string, length: number, fill = '#'): string {
  const points = [...text];
  while (points.length < length) points.push(fill);
  return points.slice(0, length).join('');
}

/** An external_ref of exactly `length` code points holding a unique label (so its events can be found), `pad` around it. */
function refOfLength(tag: string, length: number, filler: string, pad = ''): string {
  const core = `${pad}${uniqueRef(tag)} `;
  return `${toCodePoints(core + filler.repeat(length), length - pad.length)}${pad}`;
}

/** Amounts drawn across the documented range ("greater than zero"; a BR Code holds up to R$ 9,999,999,999.99): one per order of magnitude. */
function drawnAmount(): fc.Arbitrary<number> {
  return fc.integer({ min: 0, max: 11 }).chain((e) => fc.integer({ min: 10 ** e, max: Math.min(10 ** (e + 1) - 1, 999_999_999_999) }));
}

/** The answers' sample: boundaries, inexact conversions, representation traps, then `drawn` bodies drawn with `seed`. */
export function echoBodies(seed: number, drawn = 3): EchoBody[] {
  const [ascii300] = fc.sample(asciiTextOfLength(300), { seed, numRuns: 1 });
  const [mail1, mail2, mail3] = fc.sample(email(), { seed: seed + 1, numRuns: 3 });
  const boundaries: EchoBody[] = [
    { label: 'amount 1, ASCII texts at their maximum', body: { amount_cents: 1, description: ascii300 ?? 'x'.repeat(300), external_ref: refOfLength('echo-max', 120, 'x', ' '), customer_email: mail1 ?? 'a@example.com', expires_in_seconds: 86_400 } },
    { label: 'amount 1005, accented texts', body: { amount_cents: 1_005, description: 'Pedido nº 42 — ação “ç” ü ñ ß', external_ref: ` ${uniqueRef('echo-acc')} / Ação "ç" `, customer_email: mail2 ?? 'b@example.com', expires_in_seconds: 60 } },
    { label: 'amount 2999, texts with inner spacing and punctuation', body: { amount_cents: 2_999, description: 'Pedido   42 / "aspas" \\ barra', external_ref: `${uniqueRef('echo-2999')} #  42`, customer_email: 'first.last+tag@sub.example.com.br' } },
    {
      // its own amount: a refusal (counting open) takes no other value of the sample with it
      label: 'amount 3, multi-byte texts at their maximum in code points',
      body: { amount_cents: 3, description: toCodePoints('ação 🎉 ', 300, '🎉'), external_ref: refOfLength('echo-mb', 120, 'ç🎉'), customer_email: mail3 ?? 'c@example.com' },
      mayBeRefused: 'how characters are counted is not stated (a multi-byte text at the limit may be refused)',
    },
    { label: 'amount 100000001, texts a store could trim or re-normalise', body: { amount_cents: 100_000_001, description: '  Ac\u0327a\u0303o decomposed (NFD), trailing spaces  ', external_ref: `  ${uniqueRef('echo-ws')}  ` } },
    { label: 'amount 999999999999 (the largest a BR Code carries), no optional text', body: { amount_cents: 999_999_999_999, external_ref: uniqueRef('echo-big') }, mayBeRefused: 'no maximum is stated; an implementation may refuse an amount beyond its ceiling' },
  ];
  const sampled = fc.sample(
    fc.record({ amount: drawnAmount(), description: multibyteText({ maxCodePoints: 300 }), email: email(), pad: fc.constantFrom('', ' '), seconds: fc.integer({ min: 60, max: 86_400 }) }),
    { seed: seed + 2, numRuns: drawn },
  );
  return [
    ...boundaries,
    ...sampled.map((s, i) => ({
      label: `drawn #${i + 1} (amount ${s.amount})`,
      body: { amount_cents: s.amount, description: s.description, external_ref: `${s.pad}${uniqueRef(`echo-d${i + 1}`)}${s.pad}`, customer_email: s.email, expires_in_seconds: s.seconds },
      mayBeRefused: 'an amount beyond everyday sizes or a multi-byte text may meet a ceiling the contract does not state',
    })),
  ];
}
