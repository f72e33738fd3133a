/**
 * Error bodies, old-style (the caller names the requirements). The two APIs differ on purpose
 * (contract README: a rule stated for one API does not carry over to the other); the gateway's are
 * declared rules in gateway/errors.ts, the partner's in partner/errors.ts.
 *
 * Partner (partner-cashin-api.md, "Errors"): "Body: `{detail: <readable message>}`"; "422 | invalid
 * request body; detail points to the field".
 *
 * Extra fields in an error body are never a finding: the documents do not forbid them.
 */
import type { Finding, Judgement } from './finding.js';
import { judge, kindOf, makeFinding, show, type RuleContext } from './judgement.js';
import { bodyNamesField } from './field-names.js';
import { isRecord } from '../core/json.js';

export { fieldNameVariants } from './field-names.js';
// the gateway's error shapes are declared in gateway/errors.ts; these old-style forms stay for the
// callers that still name their requirements
export { ensureErrorShapeIdempotencyConflict, ensureErrorShapeNotFound, verifyGatewayErrorShape } from './gateway/errors.js';
export type { GatewayErrorShape, GatewayErrorShapeOptions } from './gateway/errors.js';

/**
 * Verifies a partner error body: `{detail: <readable message>}`, i.e. an object whose `detail` is a
 * string. Failure `error.partner-shape` otherwise — including a FastAPI-style validation list
 * (`detail: [{loc, msg, type}]`), which is not "a readable message". An empty string is a warning
 * (a string, but nothing readable).
 */
function verifyPartnerErrorShapeFinding(json: unknown, ctx: RuleContext): Finding | undefined {
  const subject = ctx.subject ?? 'the error body';
  const expected = '{detail: <readable message string>}';
  if (!isRecord(json) || typeof json.detail !== 'string') {
    let actual = json === undefined ? 'a body that is not JSON' : `${kindOf(json)} ${show(json, 300)}`;
    if (isRecord(json) && Array.isArray(json.detail)) actual += ' (detail is an array, FastAPI-style, not a readable message string)';
    else if (isRecord(json)) actual += ` (detail is ${kindOf(json.detail)})`;
    return makeFinding(ctx, { code: 'error.partner-shape', title: `${subject} is not {detail: <readable message>}`, severity: 'failure', expected, actual });
  }
  if (json.detail.trim() === '') {
    return makeFinding(ctx, { code: 'error.partner-shape', title: `${subject} has an empty detail`, severity: 'warning', expected, actual: show(json, 300) });
  }
  return undefined;
}

export interface DetailNamesFieldOptions {
  /** the body property holding the text: `detail` (partner, default) or `message` (gateway) */
  key?: 'detail' | 'message';
}

/**
 * 422 "detail points to the field" (partner) / "message points to the field" (gateway): verifies
 * that the error text names the offending field (case-insensitive; `snake_case`, `camelCase`,
 * spaced and last-path-segment spellings all count; a structured detail is searched as JSON).
 *
 * Always a WARNING (`error.field-not-named`): the text does not say HOW the message points to the
 * field (its name, a JSON path, a description in words such as "the amount must be positive"), so
 * a missing literal name cannot be proven to break the contract.
 */
function verifyDetailNamesFieldFinding(json: unknown, field: string, ctx: RuleContext, options: DetailNamesFieldOptions = {}): Finding | undefined {
  const key = options.key ?? 'detail';
  const subject = ctx.subject ?? `the 422 ${key}`;
  if (bodyNamesField(json, key, field)) return undefined;
  const raw = isRecord(json) ? json[key] : undefined;
  return makeFinding(ctx, {
    code: 'error.field-not-named',
    title: `${subject} does not name the invalid field ${field}`,
    severity: 'warning',
    expected: `${key} text naming the field "${field}"`,
    actual: raw === undefined ? `no ${key} in ${show(json, 300)}` : `${key} = ${show(raw, 300)}`,
  });
}

export function verifyPartnerErrorShape(json: unknown, ctx: RuleContext): Judgement {
  return judge(ctx, verifyPartnerErrorShapeFinding(json, ctx));
}

export function verifyDetailNamesField(json: unknown, field: string, ctx: RuleContext, options: DetailNamesFieldOptions = {}): Judgement {
  return judge(ctx, verifyDetailNamesFieldFinding(json, field, ctx, options));
}
