// generators/events.ts: every documented event type of both schemes, built from the generators, is
// valid against the specs' webhook schemas (specs/*.openapi.yaml, components.schemas *Event).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { GATEWAY_EVENTS, PARTNER_EVENTS, endToEndIdOf, gatewayEvent, partnerEvent, paymentFacts } from '../generators/events.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

function validatorsOf(file: string, urn: string): (name: string) => ValidateFunction {
  const spec = parse(readFileSync(fileURLToPath(new URL(`../specs/${file}`, import.meta.url)), 'utf8')) as Record<string, unknown>;
  const absolute = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(absolute);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${urn}${v}` : absolute(v)]));
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addSchema({ ...(absolute(spec) as object), $id: urn });
  return (name) => ajv.compile({ $ref: `${urn}#/components/schemas/${name}` });
}

const gatewaySchema = validatorsOf('gateway.openapi.yaml', 'urn:test:gateway-events');
const partnerSchema = validatorsOf('partner.openapi.yaml', 'urn:test:partner-events');
const pascal = (name: string): string => name.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
const GATEWAY_SCHEMA: Record<string, string> = Object.fromEntries(GATEWAY_EVENTS.map((e) => [e, e === 'infraction' ? 'InfractionEvent' : `${pascal(e)}Event`]));
const PARTNER_SCHEMA: Record<string, string> = { 'business.pix.created': 'PixCreatedEvent', 'business.pix.paid': 'PixPaidEvent', 'business.pix.canceled': 'PixCanceledEvent' };

describe('event generators', () => {
  for (const event of GATEWAY_EVENTS) {
    it(`gateway ${event} is valid against ${GATEWAY_SCHEMA[event]}`, () => {
      const validate = gatewaySchema(GATEWAY_SCHEMA[event]!);
      fc.assert(
        fc.property(paymentFacts('gateway'), (facts) => {
          const body = gatewayEvent(event, facts);
          expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
        }),
        { seed: 1, numRuns: 25 },
      );
    });
  }
  for (const type of PARTNER_EVENTS) {
    it(`partner ${type} is valid against ${PARTNER_SCHEMA[type]}`, () => {
      const validate = partnerSchema(PARTNER_SCHEMA[type]!);
      fc.assert(
        fc.property(paymentFacts('partner'), (facts) => {
          expect(validate(partnerEvent(type, facts)), JSON.stringify(validate.errors)).toBe(true);
        }),
        { seed: 1, numRuns: 25 },
      );
    });
  }
  it('a schema rejects a near-miss (the check above can fail)', () => {
    const [facts] = fc.sample(paymentFacts('gateway'), { seed: 3, numRuns: 1 });
    const body = gatewayEvent('transaction_paid', facts!);
    expect(gatewaySchema('TransactionPaidEvent')({ ...body, scope: 'account' })).toBe(false);
    expect(partnerSchema('PixPaidEvent')({ ...partnerEvent('business.pix.paid', fc.sample(paymentFacts('partner'), { seed: 3, numRuns: 1 })[0]!), type: 'business.pix.created' })).toBe(false);
  });
  it('the end-to-end id is read back from either scheme, 32 characters', () => {
    const [g] = fc.sample(paymentFacts('gateway'), { seed: 5, numRuns: 1 });
    const [p] = fc.sample(paymentFacts('partner'), { seed: 5, numRuns: 1 });
    expect(endToEndIdOf(gatewayEvent('transfer_completed', g!))).toBe(g!.endToEndId);
    expect(endToEndIdOf(partnerEvent('business.pix.paid', p!))).toMatch(/^E\d{8}\d{12}[0-9a-z]{11}$/);
    expect(endToEndIdOf(gatewayEvent('transaction_created', g!))).toBeUndefined();
  });
});
