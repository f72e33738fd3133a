// junit.xml from the checks' outcomes: well-formed XML, a testcase per check with its id,
// requirements, severity and finding codes as properties, the findings on <failure>, a reason on
// every <skipped>, warnings on <system-err>.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, test } from 'vitest';
import { renderJUnit } from '../harness/report/junit.js';
import { outcome, reported } from './report-fixtures.js';

interface Property { name: string; value: string }
interface Case { name: string; classname: string; properties: { property: Property[] }; failure?: { '#text': string; message: string }; skipped?: { message: string }; error?: { message: string }; 'system-err'?: string }

const checks = [
  outcome({ check: 'gateway.pixin.amount-min', title: 'amount < 100 & "quoted" <refused>', requirements: ['GW-PIXIN-AMOUNT-MIN', 'GW-PIXIN-CREATE-400'], failures: [reported('status.unexpected', ['GW-PIXIN-AMOUNT-MIN'])], replay: "npm run conformance -- --grep 'amount'" }),
  outcome({ check: 'gateway.pixin.doc', requirements: ['GW-PIXIN-DOC'], warnings: [reported('document.punctuation', ['GW-PIXIN-DOC'], { severity: 'warning', title: 'punctuation rejected' })] }),
  outcome({ check: 'gateway.split', requirements: ['GW-PIXIN-SPLIT'], state: 'not-run', notRun: 'GATEWAY_SPLIT_EMAIL not set' }),
  outcome({ check: 'gateway.balance', requirements: ['GW-BAL'], state: 'inconclusive', inconclusive: 'GET /api/v1/balance got no response (ECONNRESET)' }),
  outcome({ check: 'gateway.broken', requirements: [], state: 'error', error: 'receiver down', file: 'suites/gateway/other.test.ts' }),
  outcome({ check: 'gateway.ok', requirements: ['GW-OK'], file: 'suites/gateway/other.test.ts', notes: ['answered 422'] }),
];
const xml = renderJUnit(checks, { startedAt: '2026-11-23T10:00:00.000Z', properties: { version: '0.1.0', profile: 'quick', seed: '42' } });
const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name) }).parse(xml) as { testsuites: { tests: string; failures: string; skipped: string; errors: string; testsuite: { name: string; testcase: Case[]; properties: { property: Property[] } }[] } };
const cases = parsed.testsuites.testsuite.flatMap((s) => s.testcase);
const byCheck = (id: string): Case => {
  const found = cases.find((c) => c.properties.property.some((p) => p.name === 'check' && p.value === id));
  if (found === undefined) throw new Error(`no testcase for ${id}`);
  return found;
};
const props = (c: Case, name: string): string[] => c.properties.property.filter((p) => p.name === name).map((p) => p.value);

describe('junit.xml', () => {
  test('is well-formed, one suite per file, counts per state', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parsed.testsuites).toMatchObject({ tests: '6', failures: '1', errors: '1', skipped: '2' });
    expect(parsed.testsuites.testsuite.map((s) => s.name)).toEqual(['suites/gateway/pix-in.test.ts', 'suites/gateway/other.test.ts']);
    expect(props({ properties: parsed.testsuites.testsuite[0]!.properties } as Case, 'seed')).toEqual(['42']);
  });

  test('every testcase carries its check id, requirements, severity and finding codes', () => {
    const failed = byCheck('gateway.pixin.amount-min');
    expect(failed.name).toBe('amount < 100 & "quoted" <refused>');
    expect(failed.classname).toBe('suites/gateway/pix-in.test.ts');
    expect(props(failed, 'requirements')).toEqual(['GW-PIXIN-AMOUNT-MIN,GW-PIXIN-CREATE-400']);
    expect(props(failed, 'requirement')).toEqual(['GW-PIXIN-AMOUNT-MIN', 'GW-PIXIN-CREATE-400']);
    expect(props(failed, 'severity')).toEqual(['critical']);
    expect(props(failed, 'finding')).toEqual(['status.unexpected']);
    expect(props(failed, 'deviation')).toEqual([checks[0]!.failures[0]!.key]);
    expect(failed.failure?.message).toBe('1 finding(s) break the contract: status.unexpected');
    expect(failed.failure?.['#text']).toContain('Expected: status 400');
    expect(failed.failure?.['#text']).toContain("Replay with: npm run conformance -- --grep 'amount'");
  });

  test('a reason on every skip; a harness error is an <error>; warnings on system-err', () => {
    expect(byCheck('gateway.split').skipped?.message).toBe('not run: GATEWAY_SPLIT_EMAIL not set');
    expect(byCheck('gateway.balance').skipped?.message).toBe('inconclusive: GET /api/v1/balance got no response (ECONNRESET)');
    expect(byCheck('gateway.broken').error?.message).toBe('receiver down');
    expect(byCheck('gateway.pixin.doc')['system-err']).toContain('⚠ punctuation rejected [document.punctuation]');
    expect(props(byCheck('gateway.pixin.doc'), 'finding')).toEqual(['document.punctuation']);
    expect(byCheck('gateway.ok').failure).toBeUndefined();
  });
});
