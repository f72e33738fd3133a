/**
 * Writes harness/core/requirement-ids.ts from specs/requirements.yaml, so a mistyped
 * requirement ID fails `npm run typecheck`. Run `npm run gen:requirement-ids` after editing the
 * catalogue; test/requirements.test.ts fails while the generated file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadRequirements } from './requirements.js';

export const REQUIREMENT_IDS_FILE = fileURLToPath(new URL('../core/requirement-ids.ts', import.meta.url));

/** The generated module's text for a list of IDs (catalogue order). */
export function requirementIdsSource(ids: readonly string[]): string {
  return [
    '// Generated from specs/requirements.yaml by `npm run gen:requirement-ids`: do not edit by hand.',
    '',
    '/** Every requirement ID of the catalogue, in catalogue order. */',
    'export const REQUIREMENT_IDS = [',
    ...ids.map((id) => `  '${id}',`),
    '] as const;',
    '',
    '/** A requirement ID of specs/requirements.yaml: a mistyped ID is a type error. */',
    'export type RequirementId = (typeof REQUIREMENT_IDS)[number];',
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(REQUIREMENT_IDS_FILE, requirementIdsSource(loadRequirements().map((r) => r.id)));
  console.log(`wrote ${REQUIREMENT_IDS_FILE}`);
}
