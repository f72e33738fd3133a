/**
 * Identifiers.
 *
 * Contract: gateway-api.md, PIX transfer "endToEndId | string | on lookup; present once completed";
 * simulation responses `data{id, status, endToEndId}`; event payloads `pix{endToEndId, …}`.
 * partner-cashin-api.md: "e2e_id | string | end-to-end identifier". gateway-api.md, events:
 * "`id` (string UUID)"; pix out: "x-idempotency-key: a unique value (UUID) per operation".
 */
import type { Finding, Judgement } from './finding.js';
import { judge, kindOf, makeFinding, show, type RuleContext } from './judgement.js';

/**
 * The BCB end-to-end id: `E` + 8-digit ISPB + `yyyyMMddHHmm` (12 digits) + 11 alphanumerics = 32
 * characters (Manual de Padrões para Iniciação do Pix / SPI).
 */
export const BCB_END_TO_END_ID = /^E\d{8}\d{12}[A-Za-z0-9]{11}$/;

/**
 * Verifies an end-to-end id. Not a string, or an empty one: failure (`id.e2e-type`; the table says
 * string). A string that does not follow the BCB layout: WARNING (`id.e2e-format`), because the
 * contract only says "string" / "end-to-end identifier" and a sandbox may mint its own ids.
 */
function verifyEndToEndIdFinding(value: unknown, ctx: RuleContext): Finding | undefined {
  const subject = ctx.subject ?? 'the end-to-end id';
  if (typeof value !== 'string' || value === '') {
    return makeFinding(ctx, {
      code: 'id.e2e-type',
      title: `${subject} is not a non-empty string`,
      severity: 'failure',
      expected: 'a non-empty string',
      actual: `${kindOf(value)} ${show(value)}`,
    });
  }
  if (BCB_END_TO_END_ID.test(value)) return undefined;
  return makeFinding(ctx, {
    code: 'id.e2e-format',
    title: `${subject} does not follow the BCB end-to-end id layout`,
    severity: 'warning',
    expected: '32 characters: "E" + 8-digit ISPB + yyyyMMddHHmm + 11 alphanumerics (^E\\d{8}\\d{12}[A-Za-z0-9]{11}$)',
    actual: `${show(value)} (${value.length} characters)`,
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Verifies a UUID (8-4-4-4-12 hex digits, either case, any version): failure `id.uuid` otherwise.
 * Use it only where the text says UUID (event `id` "string UUID").
 */
function verifyUuidFinding(value: unknown, ctx: RuleContext): Finding | undefined {
  if (typeof value === 'string' && UUID.test(value)) return undefined;
  const subject = ctx.subject ?? 'the id';
  return makeFinding(ctx, {
    code: 'id.uuid',
    title: `${subject} is not a UUID`,
    severity: 'failure',
    expected: 'a UUID string (8-4-4-4-12 hex digits)',
    actual: `${kindOf(value)} ${show(value)}`,
  });
}

export function verifyEndToEndId(value: unknown, ctx: RuleContext): Judgement {
  return judge(ctx, verifyEndToEndIdFinding(value, ctx));
}

export function verifyUuid(value: unknown, ctx: RuleContext): Judgement {
  return judge(ctx, verifyUuidFinding(value, ctx));
}
