// A closing line for the e2e run: "e2e: N passed, M failed". Used next to the
// spec reporter (node --test --test-reporter=spec --test-reporter=./reporter.mjs).
export default async function* summary(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for await (const event of source) {
    // Only leaf tests count; suites (describe) report too, with `details.type`.
    if (event.data?.details?.type === 'suite') continue;
    if (event.type === 'test:pass' && (event.data.skip || event.data.todo)) skipped++;
    else if (event.type === 'test:pass') passed++;
    else if (event.type === 'test:fail') failed++;
  }
  const rest = skipped ? `, ${skipped} skipped` : '';
  yield `e2e: ${passed} passed, ${failed} failed${rest}\n`;
}
