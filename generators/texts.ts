/**
 * Texts around every documented maximum length.
 *
 * Contract:
 * - gateway POST /api/v1/pix/in/qrcode and /api/v1/pix/out/pixkey `description`: "max 140 the service".
 * - partner POST /v1/business/pix-charges `description`: "max 300 the service"; `external_ref`:
 *   "max 120 the service".
 * contract/README.md: the maximum is in characters, but how characters are counted (code points vs
 * UTF-16 units) is not stated: ASCII at the limit is checkable; every multi-byte variant is
 * `ambiguous` (an observation, never a failure).
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

/** Documented maximum lengths, in characters. */
export const TEXT_LIMITS = {
  /** gateway `description` (PIX charge and PIX transfer): "max 140 the service". */
  gatewayDescription: 140,
  /** partner `description`: "max 300 the service". */
  partnerDescription: 300,
  /** partner `external_ref`: "max 120 the service". */
  partnerExternalRef: 120,
} as const;

export type TextValidity = 'valid' | 'invalid' | 'ambiguous';

export type TextLabel =
  | 'empty'
  | 'ascii-short'
  | 'ascii-at-max'
  | 'ascii-over-max'
  | 'accented-at-max'
  | 'accented-over-max'
  | 'emoji-at-max-code-points'
  | 'emoji-at-max-utf16-units'
  | 'combining-at-max-graphemes';

export interface TextLengths {
  /** Unicode code points (`[...s].length`). */
  codePoints: number;
  /** UTF-16 code units (`s.length`). */
  utf16Units: number;
  /** UTF-8 bytes. */
  utf8Bytes: number;
}

export interface LabelledText {
  label: TextLabel;
  value: string;
  validity: TextValidity;
  max: number;
  lengths: TextLengths;
}

/** Lengths of a string under the three usual counting rules. */
export function textLengths(value: string): TextLengths {
  return { codePoints: [...value].length, utf16Units: value.length, utf8Bytes: Buffer.byteLength(value, 'utf8') };
}

function checkMax(name: string, max: number): void {
  if (!Number.isSafeInteger(max) || max < 1) throw new Error(`generators.${name}: max must be a positive integer, got ${String(max)}`);
}

/** Printable ASCII without leading/trailing spaces (servers may trim). */
const ASCII_UNIT = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,-_:;!?#()');
const ACCENTED = [...'áàâãéêíóôõúçÁÀÂÃÉÊÍÓÔÕÚÇ'];
const EMOJI = ['😀', '🎉', '💸', '🇧🇷', '🚀', '✅'];

function asciiOfLength(length: number): Arbitrary<string> {
  if (length === 0) return fc.constant('');
  // First and last characters are letters so no trimming changes the length.
  const edge = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');
  if (length === 1) return edge;
  return fc
    .tuple(edge, fc.string({ unit: ASCII_UNIT, minLength: length - 2, maxLength: length - 2 }), edge)
    .map(([a, mid, b]) => a + mid + b);
}

/** ASCII text whose length is in [min, max] (min defaults to 0). */
export function asciiText(options: { max: number; min?: number }): Arbitrary<string> {
  checkMax('asciiText', options.max);
  const min = options.min ?? 0;
  if (!Number.isSafeInteger(min) || min < 0 || min > options.max) throw new Error(`generators.asciiText: min ${String(min)} outside [0, ${options.max}]`);
  return fc.integer({ min, max: options.max }).chain((n) => asciiOfLength(n));
}

/** ASCII text of exactly `length` characters. */
export function asciiTextOfLength(length: number): Arbitrary<string> {
  if (!Number.isSafeInteger(length) || length < 0) throw new Error(`generators.asciiTextOfLength: length must be a non-negative integer, got ${String(length)}`);
  return asciiOfLength(length);
}

/** ASCII text longer than `max` (max+1 … max+50; shrinks to max+1). */
export function asciiTextOverMax(options: { max: number }): Arbitrary<string> {
  checkMax('asciiTextOverMax', options.max);
  return fc.integer({ min: options.max + 1, max: options.max + 50 }).chain((n) => asciiOfLength(n));
}

function repeatFrom(units: readonly string[], count: number, offset: number): string {
  let s = '';
  for (let i = 0; i < count; i++) s += units[(i + offset) % units.length];
  return s;
}

/**
 * The labelled boundary set for a text field with documented maximum `max`, as an arbitrary
 * (the ASCII contents vary; lengths are fixed by the label).
 */
export function boundaryText(options: { max: number; labels?: readonly TextLabel[] }): Arbitrary<LabelledText> {
  checkMax('boundaryText', options.max);
  const max = options.max;
  const make = (label: TextLabel, validity: TextValidity) => (value: string): LabelledText => ({
    label,
    value,
    validity,
    max,
    lengths: textLengths(value),
  });
  const offset = fc.nat({ max: 50 });
  const all: Array<[TextLabel, Arbitrary<LabelledText>]> = [
    ['empty', fc.constant('').map(make('empty', 'valid'))],
    ['ascii-short', asciiText({ min: 1, max: Math.max(1, Math.floor(max / 2)) }).map(make('ascii-short', 'valid'))],
    ['ascii-at-max', asciiOfLength(max).map(make('ascii-at-max', 'valid'))],
    ['ascii-over-max', asciiOfLength(max + 1).map(make('ascii-over-max', 'invalid'))],
    // Precomposed (NFC) accents: 1 code point and 1 UTF-16 unit each, 2 UTF-8 bytes.
    ['accented-at-max', offset.map((o) => repeatFrom(ACCENTED, max, o)).map(make('accented-at-max', 'ambiguous'))],
    ['accented-over-max', offset.map((o) => repeatFrom(ACCENTED, max + 1, o)).map(make('accented-over-max', 'ambiguous'))],
    // Astral emoji: `max` code points (2·max UTF-16 units) — within the limit only if code points count.
    [
      'emoji-at-max-code-points',
      offset.map((o) => repeatFrom(['😀', '🎉', '💸', '🚀'], max, o)).map(make('emoji-at-max-code-points', 'ambiguous')),
    ],
    // max/2 astral emoji (+1 ASCII when max is odd): exactly `max` UTF-16 units.
    [
      'emoji-at-max-utf16-units',
      offset.map((o) => repeatFrom(['😀', '🎉', '💸', '🚀'], Math.floor(max / 2), o) + (max % 2 === 1 ? 'a' : '')).map(make('emoji-at-max-utf16-units', 'ambiguous')),
    ],
    // e + U+0301 (combining acute): `max` user-perceived characters, 2·max code points.
    ['combining-at-max-graphemes', fc.constant('e\u0301'.repeat(max)).map(make('combining-at-max-graphemes', 'ambiguous'))],
  ];
  const chosen = all.filter(([label]) => !options.labels || options.labels.includes(label));
  if (chosen.length === 0) throw new Error('generators.boundaryText: no label selected');
  return fc.oneof(...chosen.map(([, arb]) => arb));
}

/** A short free text with accents and emoji (validity of counting is `ambiguous` only at limits). */
export function multibyteText(options: { maxCodePoints: number }): Arbitrary<string> {
  checkMax('multibyteText', options.maxCodePoints);
  return fc
    .array(fc.oneof(ASCII_UNIT, fc.constantFrom(...ACCENTED), fc.constantFrom(...EMOJI.filter((e) => [...e].length === 1))), {
      minLength: 1,
      maxLength: options.maxCodePoints,
    })
    .map((a) => a.join(''));
}
