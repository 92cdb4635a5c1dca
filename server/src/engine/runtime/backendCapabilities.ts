import type { BackendShape } from "./runtime";

/**
 * Backend capabilities (docs/reference/tools-and-backends.md). Both runtimes agree on the config's backend kinds, so the facts live here once and
 * each `Runtime` points at them:
 *
 * - JS `isSandboxBackend(b)`: an `execute` method and a non-empty string `id`. `CompositeBackend.id` is the default
 *   backend's id when that default is a sandbox, else `""`: a sandbox mounted only at a route does not count.
 *   Python `supports_execution`: for a `CompositeBackend`, the default must implement the sandbox protocol.
 * - `delete`: state, store, filesystem and sandbox backends have it; `CompositeBackend.delete` always exists (a
 *   missing one on the default or a route only fails at call time, docs/reference/decisions.md); a custom backend as declared.
 * - A factory nested inside a composite is not supported by the SDK (docs/reference/tools-and-backends.md): the composite takes instances, so a
 *   nested `factory` flag changes nothing here.
 */
export function backendCanExecute(backend: BackendShape): boolean {
  switch (backend.type) {
    case "sandbox":
      return true;
    case "composite":
      return backend.default !== undefined && backendCanExecute(backend.default);
    case "custom":
      return backend.capabilities?.execute === true;
    default:
      return false;
  }
}

export function backendCanDelete(backend: BackendShape): boolean {
  switch (backend.type) {
    case "custom":
      return backend.capabilities?.delete === true;
    default:
      // state, store, filesystem, sandbox; composite always keeps `delete`; an unknown type (a schema error) is
      // treated like the default state backend.
      return true;
  }
}
