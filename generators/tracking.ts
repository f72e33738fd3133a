/**
 * Tracking parameters (UTM and friends).
 *
 * Contract (gateway-api.md, TrackingParameters — optional object, same on PIX and card): "All
 * optional strings: src, sck, utm_source, utm_campaign, utm_medium, utm_content, utm_term.
 * 1. A value sent in the body wins. 2. A field missing from the object is looked up by the same name
 * in the query string of the origin URL (Origin/Referer) and of postbackUrl."
 * Which of Origin/Referer and postbackUrl wins when both carry a missing field is not stated, so the
 * fallback scenario never puts the same name in both with different values.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

export const TRACKING_FIELDS = ['src', 'sck', 'utm_source', 'utm_campaign', 'utm_medium', 'utm_content', 'utm_term'] as const;
export type TrackingField = (typeof TRACKING_FIELDS)[number];
export type TrackingParameters = Partial<Record<TrackingField, string>>;

const VALUE_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789_-';

/** A URL-safe tracking value (`[a-z0-9_-]{1,24}`), so it survives a query string unchanged. */
export function trackingValue(): Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...VALUE_CHARS), minLength: 1, maxLength: 24 });
}

/** A TrackingParameters object; every field optional (`fields: 'all'` makes all seven present). */
export function trackingParameters(options: { fields?: 'random' | 'all' } = {}): Arbitrary<TrackingParameters> {
  const mode = options.fields ?? 'random';
  if (mode !== 'random' && mode !== 'all') throw new Error(`generators.trackingParameters: unknown fields ${JSON.stringify(mode)}`);
  const model = Object.fromEntries(TRACKING_FIELDS.map((f) => [f, trackingValue()])) as Record<TrackingField, Arbitrary<string>>;
  return fc.record(model, { requiredKeys: mode === 'all' ? [...TRACKING_FIELDS] : [], noNullPrototype: true });
}

/** `?utm_source=a&…` for the given parameters (empty string when there are none). */
export function trackingQueryString(params: TrackingParameters): string {
  const entries = Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
}

export interface TrackingFallbackScenario {
  /** Sent in the body. */
  body: TrackingParameters;
  /** Query of the Origin/Referer URL. */
  originQuery: TrackingParameters;
  /** Query of postbackUrl. */
  postbackQuery: TrackingParameters;
  /** What the contract says the charge ends up with: body wins; missing fields from either query. */
  expected: TrackingParameters;
}

/**
 * Body + Origin/Referer query + postbackUrl query, with the resolved values the two rules imply.
 * Body fields may also appear in the queries (with other values) to exercise "the body wins".
 */
export function trackingFallbackScenario(): Arbitrary<TrackingFallbackScenario> {
  const perField = fc.record({
    source: fc.constantFrom('none', 'body', 'origin', 'postback', 'both-queries'),
    bodyValue: trackingValue(),
    queryValue: trackingValue(),
    shadowInQuery: fc.boolean(),
  });
  return fc.array(perField, { minLength: TRACKING_FIELDS.length, maxLength: TRACKING_FIELDS.length }).map((choices) => {
    const s: TrackingFallbackScenario = { body: {}, originQuery: {}, postbackQuery: {}, expected: {} };
    TRACKING_FIELDS.forEach((field, i) => {
      const c = choices[i];
      if (!c) return;
      switch (c.source) {
        case 'body':
          s.body[field] = c.bodyValue;
          s.expected[field] = c.bodyValue;
          if (c.shadowInQuery && c.queryValue !== c.bodyValue) s.originQuery[field] = c.queryValue;
          break;
        case 'origin':
          s.originQuery[field] = c.queryValue;
          s.expected[field] = c.queryValue;
          break;
        case 'postback':
          s.postbackQuery[field] = c.queryValue;
          s.expected[field] = c.queryValue;
          break;
        case 'both-queries':
          // Same value in both: no precedence question arises.
          s.originQuery[field] = c.queryValue;
          s.postbackQuery[field] = c.queryValue;
          s.expected[field] = c.queryValue;
          break;
        default:
          break;
      }
    });
    return s;
  });
}
