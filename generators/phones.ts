/**
 * Brazilian phone numbers in the PIX-key form `+55` + area code (DDD) + subscriber number.
 *
 * Contract (gateway-api.md, POST /api/v1/pix/out/pixkey `pixKey`): "phone with +55 prefix".
 * The subscriber number is 9 digits starting with 9 (mobile) or 8 digits starting with 2–5
 * (landline), so the whole value matches `^\+55\d{10,11}$`. Area codes are the ones ANATEL assigns.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

/** ANATEL area codes (DDD). */
export const AREA_CODES: readonly string[] = [
  '11', '12', '13', '14', '15', '16', '17', '18', '19', '21', '22', '24', '27', '28',
  '31', '32', '33', '34', '35', '37', '38', '41', '42', '43', '44', '45', '46', '47', '48', '49',
  '51', '53', '54', '55', '61', '62', '63', '64', '65', '66', '67', '68', '69',
  '71', '73', '74', '75', '77', '79', '81', '82', '83', '84', '85', '86', '87', '88', '89',
  '91', '92', '93', '94', '95', '96', '97', '98', '99',
];

const DIGITS = '0123456789';

function digits(n: number): Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...DIGITS), minLength: n, maxLength: n });
}

/** The national part (DDD + number, 10 or 11 digits) of a Brazilian phone number. */
export function nationalPhoneNumber(options: { type?: 'mobile' | 'landline' | 'any' } = {}): Arbitrary<string> {
  const type = options.type ?? 'any';
  if (type !== 'mobile' && type !== 'landline' && type !== 'any') {
    throw new Error(`generators.nationalPhoneNumber: unknown type ${JSON.stringify(type)}`);
  }
  const mobile = fc.tuple(fc.constantFrom(...AREA_CODES), digits(8)).map(([ddd, n]) => `${ddd}9${n}`);
  const landline = fc
    .tuple(fc.constantFrom(...AREA_CODES), fc.constantFrom('2', '3', '4', '5'), digits(7))
    .map(([ddd, first, n]) => `${ddd}${first}${n}`);
  if (type === 'mobile') return mobile;
  if (type === 'landline') return landline;
  return fc.oneof(mobile, landline);
}

/** A phone number with the `+55` prefix, e.g. `+5511987654321`. */
export function phone(options: { type?: 'mobile' | 'landline' | 'any' } = {}): Arbitrary<string> {
  return nationalPhoneNumber(options).map((n) => `+55${n}`);
}
