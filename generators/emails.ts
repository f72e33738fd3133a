/**
 * Plausible e-mail addresses (`name.surname42@example.com.br`).
 *
 * The contract only says "e-mail" (PIX key kinds; Customer `email`; card Customer "payer e-mail";
 * partner `customer_email`) without a grammar, so the generator stays inside the common subset that
 * every reasonable validator accepts: lower-case ASCII letters/digits with single dots, underscores
 * or hyphens in the local part, and a hostname of letter/digit labels. Kept short (< 64 chars)
 * so no length rule is ever in play.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const ALNUM = LOWER + '0123456789';

function word(first: string, rest: string, maxRest: number): Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...first), fc.string({ unit: fc.constantFrom(...rest), maxLength: maxRest }))
    .map(([a, b]) => a + b);
}

/** A valid e-mail address. */
export function email(): Arbitrary<string> {
  const local = fc
    .tuple(word(LOWER, ALNUM, 11), fc.option(fc.tuple(fc.constantFrom('.', '_', '-'), word(ALNUM, ALNUM, 7)), { nil: undefined }))
    .map(([a, tail]) => (tail ? a + tail[0] + tail[1] : a));
  const domain = fc
    .tuple(word(LOWER, ALNUM, 11), fc.constantFrom('com', 'com.br', 'net', 'org', 'io', 'dev.br'))
    .map(([host, tld]) => `${host}.${tld}`);
  return fc.tuple(local, domain).map(([l, d]) => `${l}@${d}`);
}

/** Labelled ways an e-mail address is malformed. */
export type MalformedEmailKind = 'no-at-sign' | 'two-at-signs' | 'empty-local-part' | 'no-domain' | 'space-inside';

/** A clearly malformed e-mail address, labelled. (`user@localhost` is NOT used: some validators accept it.) */
export function malformedEmail(): Arbitrary<{ kind: MalformedEmailKind; value: string }> {
  return fc
    .tuple(
      email(),
      fc.constantFrom<MalformedEmailKind>('no-at-sign', 'two-at-signs', 'empty-local-part', 'no-domain', 'space-inside'),
    )
    .map(([valid, kind]) => {
      const [local, domain] = valid.split('@') as [string, string];
      switch (kind) {
        case 'no-at-sign':
          return { kind, value: `${local}${domain}` };
        case 'two-at-signs':
          return { kind, value: `${local}@@${domain}` };
        case 'empty-local-part':
          return { kind, value: `@${domain}` };
        case 'no-domain':
          return { kind, value: `${local}@` };
        default:
          return { kind, value: `${local} x@${domain}` };
      }
    });
}
