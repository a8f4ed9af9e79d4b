// `wasm-opt -Oz` of many modules in one Node process, through binaryen.js's API.
//
//   node wasm_opt.mjs JOBS.json
//
// JOBS.json: { "binaryen": "/abs/path/binaryen/index.js",
//              "features": ["bulk-memory", ...],       // the CLI's --enable-* names
//              "jobs": [["in.wasm", "out.wasm"], ...] }
//
// Why: the page splits into ~280 chunks, and one `wasm-opt` process per chunk spends
// ~1.4 s each starting Node and compiling binaryen's 10 MB module: ~6.5 minutes of a
// fresh `cargo xtask play`. Here binaryen loads once. The settings are the CLI's for
// `-Oz` (optimize level 2, shrink level 2, Stack IR generated and optimized as the
// CLI does when it optimizes, no names written), and the output is byte-identical
// to the CLI's (checked on every chunk of the page when this was written).
//
// binaryen warns "unknown name subsection with id 3" for every chunk: the split
// keeps the linker's label names (subsection 3 of the name section), which binaryen
// does not read. Its output has no name section at all, so nothing is lost; the
// warnings are counted and explained in one line instead of one per chunk.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const NAME_WARNING = /^warning: unknown name subsection with id 3 at \d+\n?$/;

/** binaryen.Features key for each CLI flag name, with what the CLI turns on with it. */
const FEATURES = {
  'bulk-memory': ['BulkMemory', 'BulkMemoryOpt'],
  'nontrapping-float-to-int': ['NontrappingFPToInt'],
  'sign-ext': ['SignExt'],
  'mutable-globals': ['MutableGlobals'],
  'reference-types': ['ReferenceTypes', 'CallIndirectOverlong'],
  multivalue: ['Multivalue'],
};

async function main() {
  const [jobsFile] = process.argv.slice(2);
  if (!jobsFile) throw new Error('usage: node wasm_opt.mjs JOBS.json');
  const { binaryen: binaryenPath, features, jobs } = JSON.parse(readFileSync(jobsFile, 'utf8'));

  let skipped = 0;
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = (chunk, ...rest) => {
    if (NAME_WARNING.test(String(chunk))) {
      skipped += 1;
      return true;
    }
    return write(chunk, ...rest);
  };

  const { default: binaryen } = await import(pathToFileURL(binaryenPath).href);
  let mask = 0;
  for (const name of features) {
    const keys = FEATURES[name];
    if (!keys) throw new Error(`wasm_opt.mjs: no binaryen feature for --enable-${name}`);
    for (const key of keys) mask |= binaryen.Features[key];
  }
  binaryen.setOptimizeLevel(2);
  binaryen.setShrinkLevel(2);
  binaryen.setDebugInfo(false);
  binaryen.setGenerateStackIR(true);
  binaryen.setOptimizeStackIR(true);

  for (const [input, output] of jobs) {
    const module = binaryen.readBinary(readFileSync(input));
    try {
      module.setFeatures(mask);
      if (!module.validate()) throw new Error(`${input}: binaryen found it invalid`);
      module.optimize();
      // Renamed once complete, so an interrupted run never leaves a result behind.
      writeFileSync(`${output}.partial`, module.emitBinary());
      renameSync(`${output}.partial`, output);
    } finally {
      module.dispose();
    }
  }
  if (skipped > 0) {
    console.log(`wasm-opt: ${jobs.length} modules; skipped ${skipped} label-name subsections binaryen does not read (its output keeps no names)`);
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
