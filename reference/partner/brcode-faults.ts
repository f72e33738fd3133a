/**
 * BR Code deviations of the partner reference (faults only; the correct code is
 * reference/shared/brcode.ts). Each one is a way real BR Code builders go wrong: a field limit cut
 * one character too late, a CRC printed with `toString(16)`, a static code (key in 26.01) where the
 * contract promises "dynamic PIX charges". Kept apart so the shared builder stays the plain correct one.
 */
import { crc16CcittFalse } from '../shared/brcode.js';

function field(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** The top-level TLV fields of a BR Code (ASCII payload, as the reference builds it). */
function topLevel(code: string): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  for (let i = 0; i + 4 <= code.length; ) {
    const id = code.slice(i, i + 2);
    const length = Number(code.slice(i + 2, i + 4));
    fields.push([id, code.slice(i + 4, i + 4 + length)]);
    i += 4 + length;
  }
  return fields;
}

/** Re-assembles a BR Code from fields (63 dropped and recomputed, correctly formatted). */
function assemble(fields: ReadonlyArray<[string, string]>): string {
  const body = fields.filter(([id]) => id !== '63').map(([id, value]) => field(id, value)).join('') + '6304';
  return body + crc16CcittFalse(body);
}

/** Replaces top-level fields of a built BR Code and recomputes its CRC. */
export function withFields(code: string, replacements: Readonly<Record<string, string>>): string {
  return assemble(topLevel(code).map(([id, value]) => [id, replacements[id] ?? value]));
}

/** Letters, digits, space, dot and dash only, as the builder writes names (no length cut). */
function plainText(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9 .-]/g, '').trim();
}

/**
 * Fault `pt-qr-merchant-fields-off-by-one`: the merchant's registered name and city are written
 * with the length check off by one (`slice(0, 26)` / `slice(0, 16)` where the BR Code table allows
 * 25 and 15), so a long registered name or city overflows fields 59 and 60 by one character.
 */
export function merchantFieldsOffByOne(code: string, registeredName: string, registeredCity: string): string {
  return withFields(code, { '59': plainText(registeredName).slice(0, 26), '60': plainText(registeredCity).slice(0, 16) });
}

/**
 * Fault `pt-qr-code-crc-unformatted`: field 63 printed with `crc.toString(16)`: lowercase hex, and
 * the leading zeros dropped (a CRC below 0x1000 leaves 3 characters or fewer after `6304`).
 */
export function unformattedCrc(code: string): string {
  const body = code.slice(0, -4);
  return body + parseInt(crc16CcittFalse(body), 16).toString(16);
}

/**
 * Fault `pt-qr-code-static`: a static BR Code: the merchant's Pix key (a random EVP key) in 26.01
 * instead of the payload location in 26.25, point of initiation 11 ("reusable"), the amount kept
 * in 54. Payable any number of times, unlike the dynamic charge code the contract promises.
 */
export function staticBrCode(code: string, pixKey: string): string {
  const fields = topLevel(code).map(([id, value]): [string, string] => {
    if (id === '01') return [id, '11'];
    if (id === '26') return [id, field('00', 'br.gov.bcb.pix') + field('01', pixKey)];
    return [id, value];
  });
  return assemble(fields);
}

/**
 * Fault `pt-qr-key-and-location`: the merchant template carries the merchant's phone key (01)
 * beside the payload location (25), as a builder that started from a static code and added the
 * location does; the location is cut short so that template 26 still fits its 99 characters.
 */
export function keyBesideLocation(code: string, phoneKey: string, location: string): string {
  return withFields(code, { '26': field('00', 'br.gov.bcb.pix') + field('01', phoneKey) + field('25', location) });
}
