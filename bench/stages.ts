/**
 * Simple timers on the harness's per-request stages, replayed on one real exchange (no network):
 * JSON parse of the body, learning its secrets, request/response redaction and curl rendering (made
 * when a record is read), contract validation, and a
 * validator lookup (which must be a cache hit: schemas are compiled once, never per request).
 * Each stage runs for a bounded count and time; the result is µs per call.
 */
import type { Contract } from '../harness/contract/validator.js';
import type { HttpResult } from '../harness/http/client.js';
import { toCurl } from '../harness/http/curl.js';
import { conformToContract } from '../harness/rules/contract.js';
import type { Redactor } from '../harness/http/redact.js';
import { round } from './load.js';

export interface StageTiming {
  stage: string;
  usPerCall: number;
  calls: number;
}

export interface StagesResult {
  operation: string;
  responseBytes: number;
  stages: StageTiming[];
  /**
   * sum of the stages that run on every request: one parse, learning the body's secret fields,
   * the URL's redaction, validation. Header and body redaction and curl run only when a record is
   * read (harness/http/exchange.ts), so they are timed but not summed.
   */
  perRequestUs: number;
}

function time(stage: string, fn: () => unknown, maxCalls: number, maxMs: number): StageTiming {
  for (let i = 0; i < Math.min(50, maxCalls); i++) fn();
  const t0 = performance.now();
  let calls = 0;
  while (calls < maxCalls && performance.now() - t0 < maxMs) {
    for (let i = 0; i < 20; i++) fn();
    calls += 20;
  }
  const us = ((performance.now() - t0) * 1000) / calls;
  return { stage, usPerCall: round(us, 2), calls };
}

/** Times each stage on `result` (a real response obtained through the harness). */
export function measureStages(result: HttpResult, contract: Contract, redactor: Redactor, options: { maxCalls?: number; maxMsPerStage?: number } = {}): StagesResult {
  const maxCalls = options.maxCalls ?? 20_000;
  const maxMs = options.maxMsPerStage ?? 300;
  const exchange = result.exchange;
  const raw = { json: result.json, text: result.text, headers: result.headers };
  const op = exchange.operation ?? `${exchange.request.method} ${exchange.request.path ?? ''}`;
  const requestHeaders = { 'user-agent': 'paygate-conformance', accept: 'application/json', authorization: 'Bearer x' };
  const stages: StageTiming[] = [
    time('JSON.parse(response body)', () => JSON.parse(result.text) as unknown, maxCalls, maxMs),
    time('redactBody(response body)', () => redactor.redactBody(result.text), maxCalls, maxMs),
    // what harness/http/client.ts does: the body it already parsed is passed in
    time('redactBody(response body, parsed)', () => redactor.redactBody(result.text, result.json), maxCalls, maxMs),
    // what harness/http/exchange.ts does for every response: learn, redact later
    time('learnBody(response body, parsed)', () => redactor.learnBody(result.text, result.json, true), maxCalls, maxMs),
    time('redactHeaders(request + response)', () => {
      redactor.redactHeaders(requestHeaders);
      redactor.redactHeaders(result.headers);
    }, maxCalls, maxMs),
    time('redactText(url)', () => redactor.redactText(exchange.request.url), maxCalls, maxMs),
    time('toCurl(exchange)', () => toCurl(exchange), maxCalls, maxMs),
    time('contract rules (facts + judgement)', () => {
      const facts = contract.responseFacts(exchange, raw);
      if (facts) conformToContract.judge(facts);
    }, maxCalls, maxMs),
    time('contract.responseValidator (cache hit)', () => contract.responseValidator(exchange.api, op, result.status), maxCalls, maxMs),
  ];
  const per = (name: string): number => stages.find((s) => s.stage === name)?.usPerCall ?? 0;
  const perRequestUs = per('JSON.parse(response body)') + per('learnBody(response body, parsed)') + per('redactText(url)') + per('contract rules (facts + judgement)');
  return { operation: op, responseBytes: Buffer.byteLength(result.text), stages, perRequestUs: round(perRequestUs, 1) };
}
