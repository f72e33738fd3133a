// The requirement catalogue loader, and the catalogue's own consistency: every `x-requirement`
// named in any specs/*.openapi.yaml resolves to an entry.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { HarnessError } from '../harness/core/errors.js';
import { REQUIREMENT_IDS_FILE, requirementIdsSource } from '../harness/contract/generate-requirement-ids.js';
import { defineRule } from '../harness/rules/rule.js';
import type { RequirementId } from '../harness/rules/finding.js';
import {
  REQUIREMENT_ID_PATTERN,
  REQUIREMENT_KEYS,
  catalogueFiles,
  findRequirement,
  getRequirement,
  loadRequirements,
  parseRequirements,
  requirementsFor,
} from '../harness/contract/requirements.js';

const SPECS_DIR = fileURLToPath(new URL('../specs/', import.meta.url));

/** Every value of an `x-requirement` key anywhere in a parsed document, with its JSON pointer. */
function collectXRequirements(node: unknown, pointer = ''): { id: unknown; at: string }[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => collectXRequirements(item, `${pointer}/${index}`));
  if (typeof node !== 'object' || node === null) return [];
  const found: { id: unknown; at: string }[] = [];
  for (const [key, value] of Object.entries(node)) {
    const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (key === 'x-requirement') {
      for (const id of Array.isArray(value) ? value : [value]) found.push({ id, at });
    } else {
      found.push(...collectXRequirements(value, at));
    }
  }
  return found;
}

const entry = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'PT-TEST-RULE',
  api: 'partner',
  section: 'Errors',
  quote: 'Body: `{detail: <readable message>}`.',
  kind: 'checkable',
  ...over,
});
const source = (...entries: unknown[]) => [{ name: 'inline.yaml', text: JSON.stringify(entries) }];
const failureOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    return (error as HarnessError).message;
  }
  throw new Error('expected a HarnessError');
};

describe('loadRequirements', () => {
  const all = loadRequirements();

  it('reads the catalogue from specs/, whatever the working directory', () => {
    expect(catalogueFiles().length).toBeGreaterThan(0);
    expect(all.length).toBeGreaterThan(0);
    expect(loadRequirements()).toBe(all); // cached
  });

  it('has unique, well-formed ids whose prefix matches the api', () => {
    const ids = all.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of all) {
      expect(r.id).toMatch(REQUIREMENT_ID_PATTERN);
      expect(r.id.startsWith(r.api === 'gateway' ? 'GW-' : 'PT-')).toBe(true);
    }
  });

  it('gives every unobservable statement a reason', () => {
    const missing = all.filter((r) => r.kind === 'unobservable' && !r.reason?.trim()).map((r) => r.id);
    expect(missing).toEqual([]);
  });

  it('uses only the documented entry keys in every catalogue file', () => {
    for (const file of catalogueFiles()) {
      const doc: unknown = parse(readFileSync(file, 'utf8'));
      for (const raw of Array.isArray(doc) ? doc : []) {
        const extra = Object.keys(raw as object).filter((key) => !REQUIREMENT_KEYS.includes(key));
        expect(extra, `${file}: ${(raw as { id?: string }).id}`).toEqual([]);
      }
    }
  });

  it('has requirements for each api whose catalogue is present', () => {
    const partner = requirementsFor('partner');
    expect(partner.length).toBeGreaterThan(0);
    expect(partner.every((r) => r.api === 'partner')).toBe(true);
    const gatewayPresent = catalogueFiles().some((f) => /requirements(\.gateway)?\.yaml$/.test(f));
    if (gatewayPresent) expect(requirementsFor('gateway').length).toBeGreaterThan(0);
    expect(requirementsFor('gateway').length + partner.length).toBe(all.length);
  });

  it('looks requirements up by id', () => {
    const first = all[0];
    expect(first).toBeDefined();
    if (first === undefined) return;
    expect(getRequirement(first.id)).toBe(first);
    expect(findRequirement(first.id)).toBe(first);
    expect(findRequirement('PT-NO-SUCH-RULE')).toBeUndefined();
    expect(failureOf(() => getRequirement('PT-NO-SUCH-RULE'))).toMatch(/unknown requirement id PT-NO-SUCH-RULE/);
  });

  it('carries the partner ids the suites are told to use', () => {
    for (const id of [
      'PT-AUTH-401', 'PT-AUTH-PREFIX-ENV', 'PT-ENV-ISOLATION', 'PT-CHARGE-AMOUNT-POSITIVE', 'PT-CHARGE-DESC-MAX',
      'PT-CHARGE-EXTREF-MAX', 'PT-CHARGE-EXTREF-UNCHANGED', 'PT-CHARGE-EXPIRES-RANGE', 'PT-CHARGE-EXPIRES-DEFAULT',
      'PT-CHARGE-QR-EMV', 'PT-CHARGE-CREATE-PENDING', 'PT-CHARGE-TIMESTAMPS-UTC', 'PT-CHARGE-CANCEL-409',
      'PT-CHARGE-PAY-PROD-403', 'PT-CHARGE-EXPIRY-LAZY', 'PT-IDEM-REPLAY', 'PT-IDEM-CONFLICT-409', 'PT-IDEM-ABSENT-NEW',
      'PT-LIST-ORDER', 'PT-LIST-MAX-200', 'PT-LIST-STATUS-FILTER', 'PT-FIN-CURRENCY-BRL', 'PT-FIN-LAST-50',
      'PT-FIN-ENTRY-SHAPE', 'PT-FIN-BALANCED', 'PT-ATOMIC-CAPTURE', 'PT-WH-SIGNATURE', 'PT-WH-RAW-BODY',
      'PT-WH-TOLERANCE', 'PT-WH-REDELIVERY-ATTEMPTS', 'PT-WH-BACKOFF', 'PT-ERR-DETAIL-SHAPE', 'PT-ERR-422-FIELD',
    ]) {
      expect(findRequirement(id), id).toBeDefined();
    }
    expect(getRequirement('PT-CHARGE-EXPIRY-LAZY').kind).toBe('timer');
    expect(getRequirement('PT-WH-REDELIVERY-ATTEMPTS').kind).toBe('timer');
    expect(getRequirement('PT-WH-BACKOFF').kind).toBe('timer');
    expect(getRequirement('PT-FIN-BALANCED').ambiguity).toBeTruthy();
  });
});

describe('every x-requirement in specs/*.openapi.yaml resolves', () => {
  const specs = readdirSync(SPECS_DIR).filter((name) => name.endsWith('.openapi.yaml'));

  it('finds at least the partner spec', () => {
    expect(specs).toContain('partner.openapi.yaml');
  });

  it.each(specs)('%s', (name) => {
    const found = collectXRequirements(parse(readFileSync(`${SPECS_DIR}${name}`, 'utf8')));
    expect(found.length).toBeGreaterThan(0);
    const unresolved = found
      .filter(({ id }) => typeof id !== 'string' || findRequirement(id) === undefined)
      .map(({ id, at }) => `${String(id)} at ${at}`);
    expect(unresolved).toEqual([]);
  });
});

describe('parseRequirements validation', () => {
  it('accepts a well-formed entry and keeps optional fields', () => {
    const [r] = parseRequirements(source(entry({ ambiguity: 'counting unstated', severity: 'minor' })));
    expect(r).toEqual({ ...entry(), ambiguity: 'counting unstated', severity: 'minor' });
    expect(Object.isFrozen(r)).toBe(true);
  });

  it('concatenates sources and treats an empty file as no entries', () => {
    const list = parseRequirements([
      { name: 'a.yaml', text: '' },
      ...source(entry({ id: 'GW-A-B', api: 'gateway' })),
      ...source(entry()),
    ]);
    expect(list.map((r) => r.id)).toEqual(['GW-A-B', 'PT-TEST-RULE']);
  });

  it('rejects duplicate ids, naming both places', () => {
    expect(failureOf(() => parseRequirements([...source(entry()), ...source(entry())]))).toMatch(
      /duplicate id PT-TEST-RULE/,
    );
  });

  it.each([
    ['lower-case', 'pt-test'],
    ['unknown prefix', 'XX-TEST'],
    ['trailing dash', 'PT-TEST-'],
    ['no rule', 'PT'],
    ['underscore', 'PT-TEST_RULE'],
  ])('rejects a malformed id (%s)', (_label, id) => {
    expect(failureOf(() => parseRequirements(source(entry({ id }))))).toMatch(/id must match/);
  });

  it('rejects an id whose prefix does not match the api', () => {
    expect(failureOf(() => parseRequirements(source(entry({ api: 'gateway' }))))).toMatch(/starts with GW-/);
  });

  it('rejects an unobservable entry without a reason', () => {
    expect(failureOf(() => parseRequirements(source(entry({ kind: 'unobservable' }))))).toMatch(/needs a "reason"/);
    expect(parseRequirements(source(entry({ kind: 'unobservable', reason: 'internal' })))[0]?.reason).toBe('internal');
  });

  it.each([
    ['api', { api: 'both' }, /"api" must be one of/],
    ['kind', { kind: 'manual' }, /"kind" must be one of/],
    ['severity', { severity: 'high' }, /"severity" must be one of/],
    ['quote', { quote: '' }, /"quote" must be a non-empty string/],
    ['section', { section: 3 }, /"section" must be a non-empty string/],
  ])('rejects a bad %s', (_label, over, message) => {
    expect(failureOf(() => parseRequirements(source(entry(over))))).toMatch(message);
  });

  it('rejects a document that is not a list, or not YAML', () => {
    expect(failureOf(() => parseRequirements([{ name: 'x.yaml', text: 'id: PT-A' }]))).toMatch(/YAML list/);
    expect(failureOf(() => parseRequirements([{ name: 'x.yaml', text: '- [unclosed' }]))).toMatch(/not valid YAML/);
  });
});

describe('generated requirement IDs', () => {
  it('harness/core/requirement-ids.ts matches the catalogue (run `npm run gen:requirement-ids`)', () => {
    expect(readFileSync(REQUIREMENT_IDS_FILE, 'utf8')).toBe(requirementIdsSource(loadRequirements().map((r) => r.id)));
  });
});

describe('latitude: warning', () => {
  it('caps a finding naming only such requirements at a warning, and nothing else', () => {
    const warnOnly = loadRequirements().find((r) => r.latitude === 'warning');
    const firm = loadRequirements().find((r) => r.kind === 'checkable' && r.latitude === undefined);
    expect(firm).toBeDefined();
    const ids = [firm!.id, ...(warnOnly ? [warnOnly.id] : [])] as RequirementId[];
    const rule = defineRule({
      name: 'fixtureLatitude',
      requirements: ids,
      codes: { 'fixture.found': 'failure' },
      judge(named: readonly RequirementId[], v) {
        v.find('fixture.found', { title: 't', expected: 'e', actual: 'a', requirements: named });
      },
    });
    const severity = (named: readonly RequirementId[]): string | undefined => rule.judge(named).findings[0]?.severity;
    expect(severity([firm!.id as RequirementId])).toBe('failure');
    if (warnOnly) {
      expect(severity([warnOnly.id as RequirementId])).toBe('warning');
      expect(severity([warnOnly.id as RequirementId, firm!.id as RequirementId])).toBe('failure');
    }
  });
  it('needs the ambiguity it follows from', () => {
    expect(() => parseRequirements([{ name: 'x.yaml', text: '- { id: GW-X, api: gateway, section: s, quote: q, kind: checkable, latitude: warning }' }])).toThrow(HarnessError);
  });
});
