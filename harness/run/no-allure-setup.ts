/**
 * Worker setup of a run without Allure (`--no-allure`, PAYGATE_ALLURE=0): the checks still call the
 * allure-js-commons facade (labels, links, attachments), which, with no runtime installed, tries to
 * import an auto-configuration module (`allure-playwright/autoconfig`) on every call and falls back
 * to its no-op runtime when that fails. A failed import per call cost about half a second of a
 * quick run's CPU; an installed runtime that answers "none" gives the same no-op at once.
 */
const ALLURE_TEST_RUNTIME_KEY = 'allureTestRuntime';
// allure-js-commons reads `globalThis.allureTestRuntime()` and uses its no-op runtime for undefined
(globalThis as Record<string, unknown>)[ALLURE_TEST_RUNTIME_KEY] = (): undefined => undefined;
