// A closing line for the e2e run: "e2e: N passed, M failed". Used next to the
// spec reporter (node --test --test-reporter=spec --test-reporter=./reporter.mjs).
export default async function* summary(source) {
  let passed = 0;
  let failed = 0;
  for await (const event of source) {
    // Only leaf tests count; suites (describe) report too, with `details.type`.
    if (event.type === 'test:pass' && event.data.details?.type !== 'suite') passed++;
    if (event.type === 'test:fail' && event.data.details?.type !== 'suite') failed++;
  }
  yield `e2e: ${passed} passed, ${failed} failed\n`;
}
