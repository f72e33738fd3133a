// Lint: eslint's and typescript-eslint's recommended rules, no type-aware rules (fast).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/**', 'reports/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // Suites and fuzzer commands act; rules (harness/rules/) judge. A suite never builds a finding
    // nor changes a severity: it hands observations to a rule and records the rule's judgement.
    // (the report modules summarise findings and the run modules carry check metadata: not here)
    // harness/contract/ and harness/webhooks/ give facts (a response in the spec's terms, a parsed
    // signature and its digests): the contract and signature rules judge them.
    files: ['suites/**/*.ts', 'generators/**/*.ts', 'harness/http/**/*.ts', 'harness/config/**/*.ts', 'harness/contract/**/*.ts', 'harness/webhooks/**/*.ts', 'harness/run/model.ts', 'harness/run/session.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "Identifier[name='defineRule']", message: 'findings are built by rules declared in harness/rules/, never in suites' },
        { selector: "Property[key.name='severity']:not([value.value=/^(blocker|critical|normal|minor)$/])", message: 'the rule decides severity (and the catalogue its ambiguity); suites never set or change one' },
        { selector: "ObjectExpression:has(> Property[key.name='expected']):has(> Property[key.name='actual'])", message: 'a finding-shaped object: write a rule in harness/rules/ instead' },
        { selector: "ObjectExpression:has(> SpreadElement):has(> Property[key.name=/^(title|requirements)$/])", message: 'rewriting a finding after the fact: let the rule decide' },
      ],
    },
  },
);
