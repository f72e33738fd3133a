/**
 * Field checks for request bodies. Each throws a 400 naming the field's path (see errors.ts).
 * Lengths count Unicode code points (the contract says only "max 140 the service").
 */
import { invalidField } from './errors.js';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function characterCount(text: string): number {
  return Array.from(text).length;
}

export function requireObject(value: unknown, path: string): JsonObject {
  if (value === undefined || value === null) throw invalidField(path, 'is required');
  if (!isJsonObject(value)) throw invalidField(path, 'must be an object');
  return value;
}

export function optionalObject(value: unknown, path: string): JsonObject | undefined {
  if (value === undefined) return undefined;
  if (!isJsonObject(value)) throw invalidField(path, 'must be an object');
  return value;
}

export interface StringRules {
  maxChars?: number;
  nonEmpty?: boolean;
  /** count UTF-16 code units instead of code points (personality `gwCharacterCount`) */
  utf16Units?: boolean;
}

export function optionalString(value: unknown, path: string, rules: StringRules = {}): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidField(path, 'must be a string');
  if (rules.nonEmpty && value.trim() === '') throw invalidField(path, 'must not be empty');
  if (rules.maxChars !== undefined && (rules.utf16Units ? value.length : characterCount(value)) > rules.maxChars) {
    throw invalidField(path, `must be at most ${rules.maxChars} characters`);
  }
  return value;
}

export function requireString(value: unknown, path: string, rules: StringRules = {}): string {
  if (value === undefined || value === null) throw invalidField(path, 'is required');
  return optionalString(value, path, rules) as string;
}

export interface IntegerRules {
  min: number;
  max?: number;
}

export function optionalInteger(value: unknown, path: string, rules: IntegerRules): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalidField(path, 'must be an integer');
  if (value < rules.min) throw invalidField(path, `must be at least ${rules.min}`);
  if (rules.max !== undefined && value > rules.max) throw invalidField(path, `must be at most ${rules.max}`);
  return value;
}

export function requireInteger(value: unknown, path: string, rules: IntegerRules): number {
  if (value === undefined || value === null) throw invalidField(path, 'is required');
  return optionalInteger(value, path, rules) as number;
}

export function optionalBoolean(value: unknown, path: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalidField(path, 'must be a boolean');
  return value;
}

export function requireBoolean(value: unknown, path: string): boolean {
  if (value === undefined || value === null) throw invalidField(path, 'is required');
  return optionalBoolean(value, path) as boolean;
}

/** An absolute http(s) URL: the contract types `postbackUrl` and webhook `url` as "string (URI)". */
export function optionalHttpUrl(value: unknown, path: string): string | undefined {
  const text = optionalString(value, path);
  if (text === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw invalidField(path, 'must be an absolute URI');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalidField(path, 'must be an http or https URI');
  return text;
}

export function requireHttpUrl(value: unknown, path: string): string {
  if (value === undefined || value === null) throw invalidField(path, 'is required');
  return optionalHttpUrl(value, path) as string;
}
