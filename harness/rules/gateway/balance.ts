/**
 * Balance: gateway-api.md "GET /api/v1/balance" ("200: `success`, `data{pix{balance},
 * pixBlocked{balance}, reserve{balance}}`") and "Balance (response data, strings in reais, 2
 * decimals)": "pix.balance | available PIX balance"; "pixBlocked.balance | blocked PIX balance";
 * "reserve.balance | held in risk reserve (if applicable)".
 */
import type { Judgement } from '../finding.js';
import { combine, judge, makeFinding, kindOf, show, type RuleContext } from '../judgement.js';
import { verifyBalanceString } from '../money.js';
import { dataOf, isRecord } from '../../core/json.js';

/**
 * The balance buckets of a 200 answer: `pix.balance` and `pixBlocked.balance` are strings in reais
 * with 2 decimals; `reserve` is "(if applicable)": absent or null passes (issue 14), present it is
 * an object whose `balance` is such a string. A missing bucket object fails (`contract.schema`
 * reports the shape too; this rule names the bucket).
 */
export function verifyBalanceBuckets(json: unknown, ctx: RuleContext): Judgement {
  const data = dataOf(json);
  return combine(
    ...(['pix', 'pixBlocked', 'reserve'] as const).map((bucket) => {
      const value = data?.[bucket];
      const c: RuleContext = { ...ctx, pointer: `/data/${bucket}/balance`, subject: `data.${bucket}.balance` };
      if (bucket === 'reserve' && (value === undefined || value === null)) return judge(ctx);
      if (!isRecord(value)) {
        return judge(ctx, makeFinding({ ...ctx, pointer: `/data/${bucket}` }, {
          code: 'money.balance-string', severity: 'failure', title: `data.${bucket} is not a balance object`,
          expected: `data.${bucket} = {balance: "<reais with 2 decimals>"}`, actual: `${kindOf(value)} ${show(value)}`,
        }));
      }
      return verifyBalanceString(value.balance, c);
    }),
  );
}
