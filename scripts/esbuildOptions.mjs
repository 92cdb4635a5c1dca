// The esbuild options every Node bundle of this repository shares: the product (build.mjs) and the benchmark
// (bench/build.mjs), so that the benchmark times the engine bundled exactly as it ships.
export function nodeBundleOptions(root, version) {
  return {
    absWorkingDir: root,
    bundle: true,
    platform: "node",
    // jsonc-parser's UMD build requires its modules dynamically; its ESM build bundles cleanly.
    mainFields: ["module", "main"],
    target: "node20",
    format: "cjs",
    sourcemap: false,
    define: { AGENT_SANDBOX_VERSION: JSON.stringify(version) },
    logLevel: "warning",
  };
}
