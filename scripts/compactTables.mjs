// refa (the automata library, in dist/analysis.js only) ships its Unicode tables as 397 calls of the form
// `JSON.parse('[{"min":48,"max":57},{"min":65,"max":70}]')`: half a megabyte of the product's JavaScript, spelled
// out character by character. The build writes each such list compactly, as base-36 gaps and lengths decoded by one
// small function, which returns what `JSON.parse` returned: a fresh array of fresh `{ min, max }` objects, in the
// same order, with the same keys in the same order. Nothing else in the library changes (a call of any other shape,
// the case-folding maps and emoji sequences among them, is left as it is). test/build/compactTables.test.ts holds
// every rewritten list equal to the original and the rewritten library to the original on real patterns.

/** The name of the decoder the rewritten module calls (appended to it; function declarations are hoisted). */
export const DECODER_NAME = "__agentSandboxRanges";

/** `JSON.parse('<list of {"min":N,"max":N}>')`, and nothing else. */
const RANGE_LIST_CALL = /JSON\.parse\('(\[(?:\{"min":\d+,"max":\d+\}(?:,\{"min":\d+,"max":\d+\})*)?\])'\)/g;

/** One list as the decoder reads it: per range, the gap from the previous range's max, then `.length` unless 0. */
export function encodeRanges(ranges) {
  let previous = 0;
  return ranges
    .map(({ min, max }) => {
      const entry = (min - previous).toString(36) + (max === min ? "" : `.${(max - min).toString(36)}`);
      previous = max;
      return entry;
    })
    .join(",");
}

/** The decoder, as source (and as a function the test calls). */
export const DECODER_SOURCE = `function ${DECODER_NAME}(s){const a=[];if(s==="")return a;let p=0;for(const e of s.split(",")){const d=e.indexOf("."),min=p+parseInt(d<0?e:e.slice(0,d),36),max=d<0?min:min+parseInt(e.slice(d+1),36);a.push({min:min,max:max});p=max}return a}`;

/** The library's source with every range list written compactly, and how many were. */
export function compactRangeTables(source) {
  let count = 0;
  const contents = source.replace(RANGE_LIST_CALL, (_, json) => {
    count++;
    return `${DECODER_NAME}(${JSON.stringify(encodeRanges(JSON.parse(json)))})`;
  });
  return { contents: count === 0 ? contents : `${contents}\n${DECODER_SOURCE}\n`, count };
}

/** The esbuild plugin build.mjs and bench/build.mjs use, so the benchmark times refa as it ships. */
export const compactRefaTables = {
  name: "compact-refa-tables",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]refa[\\/]index\.js$/ }, async (args) => {
      const { readFileSync } = await import("node:fs");
      return { contents: compactRangeTables(readFileSync(args.path, "utf8")).contents, loader: "js" };
    });
  },
};
