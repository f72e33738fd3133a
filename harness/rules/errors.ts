/**
 * Error bodies. The two APIs differ on purpose (contract README: a rule stated for one API does not
 * carry over to the other).
 *
 * Gateway (gateway-api.md, "Errors"): "Two body shapes occur: `{success: false, message}` and
 * `{error: <CODE>, message}`. Codes seen: `NOT_FOUND`, `IDEMPOTENCY_CONFLICT`." GET charge/transfer:
 * "404 body `{error: NOT_FOUND, message}`"; pix out: "The same key with a different body gives 409
 * (`IDEMPOTENCY_CONFLICT`)"; "422 | validation failure; message points to the field".
 *
 * Partner (partner-cashin-api.md, "Errors"): "Body: `{detail: <readable message>}`"; "422 | invalid
 * request body; detail points to the field".
 *
 * Extra fields in an error body are never a finding: the documents do not forbid them.
 */
import type { Finding, Judgement } from './finding.js';
import { judge, kindOf, makeFinding, show, type RuleContext } from './judgement.js';

export type GatewayErrorShape = 'success-false' | 'error-code' | 'either';

export interface GatewayErrorShapeOptions {
  /** which of the two documented shapes the caller's clause requires */
  shape: GatewayErrorShape;
  /** the `error` code required (only checked on the `{error, message}` shape) */
  code?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SHAPE_TEXT: Record<GatewayErrorShape, string> = {
  'success-false': '{success: false, message}',
  'error-code': '{error: <CODE>, message}',
  either: '{success: false, message} or {error: <CODE>, message}',
};

/**
 * Verifies a gateway error body against one of the two documented shapes (`json` is the parsed
 * body, undefined when it did not parse). With `code`, the `{error, message}` shape must carry
 * exactly that code (`shape: 'either'` checks the code only when the body uses that shape). Failure
 * `error.shape` when the shape is wrong; failure `error.code` when the code differs.
 */
function verifyGatewayErrorShapeFinding(json: unknown, options: GatewayErrorShapeOptions, ctx: RuleContext): Finding | undefined {
  const subject = ctx.subject ?? 'the error body';
  const expectedShape = options.code && options.shape !== 'success-false'
    ? options.shape === 'error-code'
      ? `{error: "${options.code}", message}`
      : `{success: false, message} or {error: "${options.code}", message}`
    : SHAPE_TEXT[options.shape];
  const bad = (actual: string): Finding =>
    makeFinding(ctx, { code: 'error.shape', title: `${subject} has neither documented gateway error shape`, severity: 'failure', expected: expectedShape, actual });
  if (!isRecord(json)) return bad(json === undefined ? 'a body that is not JSON' : `${kindOf(json)} ${show(json)}`);
  // the shape names `message` without a type (GW-ERR-SHAPES): a string, a list of strings (one per
  // field) or a field → text map are all a message; only its absence (or null) breaks the shape
  const hasMessage = json.message !== undefined && json.message !== null;
  const successFalse = json.success === false && hasMessage;
  const errorCode = typeof json.error === 'string' && hasMessage;
  const ok = options.shape === 'success-false' ? successFalse : options.shape === 'error-code' ? errorCode : successFalse || errorCode;
  if (!ok) {
    const why: string[] = [];
    if (!hasMessage) why.push(`message is ${kindOf(json.message)}`);
    if (options.shape !== 'error-code' && json.success !== false) why.push(`success is ${show(json.success)}`);
    if (options.shape !== 'success-false' && typeof json.error !== 'string') why.push(`error is ${show(json.error)}`);
    return bad(`${show(json, 300)} (${why.join(', ')})`);
  }
  if (options.code !== undefined && errorCode && json.error !== options.code && options.shape !== 'success-false') {
    return makeFinding(ctx, {
      code: 'error.code',
      title: `${subject} carries the wrong error code`,
      severity: 'failure',
      expected: `error = "${options.code}"`,
      actual: `error = ${show(json.error)} in ${show(json, 300)}`,
    });
  }
  return undefined;
}

/** "404 body `{error: NOT_FOUND, message}`" (GET charge, GET transfer). */
function ensureErrorShapeNotFoundFinding(json: unknown, ctx: RuleContext): Finding | undefined {
  return verifyGatewayErrorShapeFinding(json, { shape: 'error-code', code: 'NOT_FOUND' }, ctx);
}

/** "The same key with a different body gives 409 (`IDEMPOTENCY_CONFLICT`)" (POST pix out). */
function ensureErrorShapeIdempotencyConflictFinding(json: unknown, ctx: RuleContext): Finding | undefined {
  return verifyGatewayErrorShapeFinding(json, { shape: 'error-code', code: 'IDEMPOTENCY_CONFLICT' }, ctx);
}

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

/** The spellings under which a message may name a field: `amount_cents` ~ `amountCents` ~ `amount cents`; a dotted path also by its last segment. */
export function fieldNameVariants(field: string): string[] {
  const variants = new Set<string>();
  const add = (name: string): void => {
    if (name === '') return;
    variants.add(name);
    variants.add(name.replace(/_([a-z0-9])/gi, (_m, c: string) => c.toUpperCase()));
    variants.add(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase());
    variants.add(name.replace(/_/g, ' '));
    variants.add(name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase());
  };
  add(field);
  const segments = field.split(/[.[\]/]+/).filter((s) => s !== '' && !/^\d+$/.test(s));
  const lastSegment = segments[segments.length - 1];
  if (lastSegment !== undefined) add(lastSegment);
  return [...variants];
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
  const raw = isRecord(json) ? json[key] : undefined;
  const text = typeof raw === 'string' ? raw : raw === undefined ? '' : (JSON.stringify(raw) ?? '');
  const haystack = text.toLowerCase();
  if (text !== '' && fieldNameVariants(field).some((v) => haystack.includes(v.toLowerCase()))) return undefined;
  return makeFinding(ctx, {
    code: 'error.field-not-named',
    title: `${subject} does not name the invalid field ${field}`,
    severity: 'warning',
    expected: `${key} text naming the field "${field}"`,
    actual: raw === undefined ? `no ${key} in ${show(json, 300)}` : `${key} = ${show(raw, 300)}`,
  });
}

export function verifyGatewayErrorShape(json: unknown, options: GatewayErrorShapeOptions, ctx: RuleContext): Judgement {
  return judge(ctx, verifyGatewayErrorShapeFinding(json, options, ctx));
}

export function ensureErrorShapeNotFound(json: unknown, ctx: RuleContext): Judgement {
  return judge(ctx, ensureErrorShapeNotFoundFinding(json, ctx));
}

export function ensureErrorShapeIdempotencyConflict(json: unknown, ctx: RuleContext): Judgement {
  return judge(ctx, ensureErrorShapeIdempotencyConflictFinding(json, ctx));
}

export function verifyPartnerErrorShape(json: unknown, ctx: RuleContext): Judgement {
  return judge(ctx, verifyPartnerErrorShapeFinding(json, ctx));
}

export function verifyDetailNamesField(json: unknown, field: string, ctx: RuleContext, options: DetailNamesFieldOptions = {}): Judgement {
  return judge(ctx, verifyDetailNamesFieldFinding(json, field, ctx, options));
}
