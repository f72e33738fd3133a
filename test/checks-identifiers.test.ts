// Identifiers (harness/rules/identifiers.ts): PIX keys read against the contract's words closed by
// the DICT's key rules (cross-checked with @brazilian-utils/brazilian-utils isValidPixKey and
// cpf-cnpj-validator), the end-to-end id with its date and time, UUIDs. Each reading at its edges.
import { isValidPixKey } from '@brazilian-utils/brazilian-utils';
import { cpf as cpfOracle } from 'cpf-cnpj-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { malformedPixKeyCases, pixKey, evpKey, email } from '../generators/index.js';
import { BCB_END_TO_END_ID, dictKeyFormProblem, endToEndIdProblem, readPixKey, uuidProblem } from '../harness/rules/identifiers.js';

const standing = (key: string): string => readPixKey(key).standing;

describe('readPixKey: the five kinds', () => {
  it('reads every valid key of the five kinds as valid, as the independent oracle does', () => {
    fc.assert(
      fc.property(pixKey(), (k) => {
        expect(standing(k.value), k.value).toBe('valid');
        expect(isValidPixKey(k.value), k.value).toBe(true);
      }),
      { seed: 15, numRuns: 300 },
    );
  });

  it('reads every generated malformed key as invalid (one per class, several seeds)', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const c of malformedPixKeyCases(seed)) {
        expect(standing(c.value), `${c.rule} ${c.value}`).toBe('invalid');
        // the oracle reads bare digits ("55…", 11 digits) as a phone too, which "phone with +55 prefix"
        // does not, and "+55" + 9 digits as the national number "55…" under +55
        if (!/^\d+$/.test(c.value) && c.rule !== 'key.phone-wrong-length') expect(isValidPixKey(c.value), `${c.rule} ${c.value}`).toBe(false);
      }
    }
  });

  it('a CPF-shaped key with wrong check digits, or of one digit, is invalid', () => {
    expect(cpfOracle.isValid('52998224726')).toBe(false);
    expect(readPixKey('52998224726')).toMatchObject({ standing: 'invalid' });
    expect(readPixKey('52998224725')).toMatchObject({ standing: 'valid' });
    expect(readPixKey('11111111111')).toMatchObject({ standing: 'invalid', why: 'a reserved one-digit CPF' });
    expect(standing('00000000000000')).toBe('invalid');
  });

  it('leaves the forms the text does not pin down borderline', () => {
    for (const key of ['529.982.247-25', '12ABC34501DE35', '+55 11 99999-8888', '+551130000000', 'a@localhost', 'Fulano@Example.com']) {
      expect(standing(key), key).toBe('borderline');
    }
    expect(standing('12ABC34501DE36')).toBe('invalid');
    expect(standing('+12025550123')).toBe('invalid');
    expect(standing('')).toBe('invalid');
    expect(standing('123e4567-e89b-12d3-a456-42661417400')).toBe('invalid');
  });
});

describe('readPixKey: the DICT rules (phone length, EVP hyphens, e-mail length and set)', () => {
  it('phone: +55 and 11 national digits of a mobile is valid; 10 (a landline) or off the mobile numbering borderline; any other count invalid', () => {
    expect(readPixKey('+5511987654321')).toMatchObject({ standing: 'valid' });
    expect(readPixKey('+551130000000')).toMatchObject({ standing: 'borderline', why: expect.stringMatching(/landline/) });
    expect(readPixKey('+5511887654321')).toMatchObject({ standing: 'borderline', why: expect.stringMatching(/mobile numbering/) });
    expect(readPixKey('+5500987654321')).toMatchObject({ standing: 'borderline' });
    for (const key of ['+55', '+551198765432', '+55119876543', '+551198765432100', '+5511', '+559876543']) {
      if (key.length - 3 === 10 || key.length - 3 === 11) continue;
      expect(readPixKey(key), key).toMatchObject({ standing: 'invalid', why: expect.stringMatching(/national digits/) });
      expect(isValidPixKey(key), key).toBe(false);
    }
    expect(standing('+55 11 9876-54321 0')).toBe('invalid');
  });

  it('EVP: the UUID with its hyphens, either case; the 32 hex digits without them are invalid', () => {
    const uuid = fc.sample(evpKey(), { seed: 3, numRuns: 1 })[0] as string;
    expect(standing(uuid)).toBe('valid');
    expect(standing(uuid.toUpperCase())).toBe('valid');
    const bare = uuid.replace(/-/g, '');
    expect(readPixKey(bare)).toMatchObject({ standing: 'invalid', why: expect.stringMatching(/without its hyphens/) });
    expect(isValidPixKey(bare)).toBe(false);
  });

  it('e-mail: at most 77 characters (valid at 77, invalid at 78)', () => {
    const at77 = `${'a'.repeat(77 - '@example.com'.length)}@example.com`;
    expect(at77).toHaveLength(77);
    expect(standing(at77)).toBe('valid');
    expect(isValidPixKey(at77)).toBe(true);
    const at78 = `a${at77}`;
    expect(readPixKey(at78)).toMatchObject({ standing: 'invalid', why: expect.stringMatching(/78 characters, over the 77/) });
  });

  it("e-mail: the DICT's character set; '&' (out since DICT API 2.6.0) borderline; others invalid", () => {
    for (const key of ["o'brien+tag@example.com", 'a.b_c-d@sub.example.com.br', 'x!#$*/=?^`{|}~@example.org']) expect(standing(key), key).toBe('valid');
    expect(readPixKey('a&b@example.com')).toMatchObject({ standing: 'borderline', why: expect.stringMatching(/2\.6\.0/) });
    for (const key of ['josé@example.com', 'a%b@example.com', '"quoted"@example.com', 'a@exa_mple.com', 'a@-example.com', 'a b@example.com']) {
      expect(standing(key), key).toBe('invalid');
    }
    expect(standing('.a@example.com')).toBe('borderline');
    expect(standing('a..b@example.com')).toBe('borderline');
  });

  it('a key with surrounding spaces: borderline when the key inside is one (a service may trim it), invalid otherwise', () => {
    const mail = fc.sample(email(), { seed: 9, numRuns: 1 })[0] as string;
    for (const key of [` ${mail}`, `${mail} `, ' 52998224725 ', '\t+5511987654321\n']) {
      expect(readPixKey(key), JSON.stringify(key)).toMatchObject({ standing: 'borderline', why: expect.stringMatching(/surrounding spaces/) });
    }
    expect(isValidPixKey(` ${mail}`)).toBe(true); // the public implementation trims it
    expect(standing(' 52998224726 ')).toBe('invalid');
    expect(standing('   ')).toBe('invalid');
  });

  it('dictKeyFormProblem: the key of a static BR Code exactly as the DICT writes it', () => {
    expect(dictKeyFormProblem('+5511987654321')).toBeUndefined();
    expect(dictKeyFormProblem('fulano@example.com')).toBeUndefined();
    expect(dictKeyFormProblem('123E4567-E12B-12D1-A456-426655440000')).toMatch(/upper case/);
    expect(dictKeyFormProblem('Fulano@example.com')).toMatch(/upper-case/);
    expect(dictKeyFormProblem('+551130000000')).toMatch(/landline/);
  });
});

describe('endToEndIdProblem', () => {
  it('the BCB layout passes; another string is a layout problem; a non-string a type problem', () => {
    expect(endToEndIdProblem('E12345678202611221015abcDEF12345')).toBeUndefined();
    expect(endToEndIdProblem('E1234ABCD202611221015abcDEF12345')).toBeUndefined(); // an alphanumeric ISPB, as the SPI catalogue allows
    expect(endToEndIdProblem('e2e_123')).toMatchObject({ kind: 'layout' });
    expect(endToEndIdProblem('E1234567820261122101abcDEF12345')).toMatchObject({ kind: 'layout' });
    expect(endToEndIdProblem(undefined)).toMatchObject({ kind: 'type' });
    expect(endToEndIdProblem('')).toMatchObject({ kind: 'type' });
    expect(BCB_END_TO_END_ID.test('E12345678202611221015abcDEF1234')).toBe(false);
  });

  it('a date or time that does not exist: month, day (leap years), hour, minute', () => {
    const e2e = (stamp: string): string => `E12345678${stamp}abcDEF12345`;
    for (const stamp of ['202601010000', '202612312359', '202402290000', '202611300000']) expect(endToEndIdProblem(e2e(stamp)), stamp).toBeUndefined();
    for (const [stamp, why] of [['202600011015', /month 00/], ['202613011015', /month 13/], ['202602300000', /day 30/], ['202502290000', /day 29/], ['202604310000', /day 31/], ['202611000000', /day 00/], ['202611222400', /hour 24/], ['202611221060', /minute 60/]] as const) {
      expect(endToEndIdProblem(e2e(stamp)), stamp).toMatchObject({ kind: 'moment', actual: expect.stringMatching(why) });
    }
  });

});

describe('uuidProblem', () => {
  it('8-4-4-4-12 hex digits, either case, any version', () => {
    expect(uuidProblem('0b8f5a52-8d5e-4c1e-9a51-0f8a4f1c2d3e')).toBeUndefined();
    expect(uuidProblem('0B8F5A52-8D5E-4C1E-9A51-0F8A4F1C2D3E')).toBeUndefined();
    expect(uuidProblem('0b8f5a528d5e4c1e9a510f8a4f1c2d3e')).toMatchObject({ kind: 'uuid' });
    expect(uuidProblem(12)).toMatchObject({ kind: 'uuid', actual: 'number 12' });
  });
});
