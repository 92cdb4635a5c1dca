import type { PermissionRuleInput } from "../permissions/ruleList";
import type { CompiledPattern, Runtime } from "../runtime/runtime";
import type { DryBackend } from "./backends";
import { sharedCache } from "../caches";

/**
 * `delete`'s permission check (docs/reference/decisions.md): a target that may have descendants is checked
 * against every deny-write pattern that could match it or anything under it, in any rule order; a confirmed plain
 * file like `write_file` (first match wins). Both runtimes share the geometry; each brings its own matcher and
 * canonicalisation.
 */
const WILDCARDS = ["*", "?", "{", "["];

function hasWildcard(pattern: string): boolean {
  return WILDCARDS.some((c) => pattern.includes(c));
}

function parts(path: string): string[] {
  return path.split("/").filter(Boolean);
}

function isRelativeTo(child: string, ancestor: string): boolean {
  if (ancestor === "/") return true;
  return child === ancestor || child.startsWith(`${ancestor}/`);
}

function globAnchor(pattern: string): string {
  const safe: string[] = [];
  for (const part of parts(pattern)) {
    if (WILDCARDS.some((c) => part.includes(c))) break;
    safe.push(part);
  }
  return safe.length === 0 ? "/" : `/${safe.join("/")}`;
}

/** Component-wise: one path is the other or holds it; both canonicalised as JS `validatePath` does. */
function pathsOverlap(target: string, anchor: string): boolean {
  const a = `/${parts(target).join("/")}`;
  const b = `/${parts(anchor).join("/")}`;
  return a === b || isRelativeTo(a, b) || isRelativeTo(b, a);
}

/** Compiled patterns, per runtime: a scenario deletes many times under the same few rules. */
const compiled = sharedCache<string, CompiledPattern>("dryrun/deleteGeometry.compiled", { entries: 2001 });
function matcher(runtime: Runtime, pattern: string): CompiledPattern {
  const key = `${runtime.id}\u0000${pattern}`;
  let c = compiled.get(key);
  if (!c) {
    compiled.set(key, (c = runtime.compilePattern(pattern)));
  }
  return c;
}

function wildcardOverlap(runtime: Runtime, pattern: string, anchor: string, target: string): boolean {
  const m = matcher(runtime, pattern);
  const matches = (p: string) => m.matches(p);
  if (anchor === "/") return true;
  if (matches(target)) return true;
  if (isRelativeTo(anchor, target)) return true;
  if (!isRelativeTo(target, anchor)) return false;
  const anchorParts = parts(anchor);
  const suffix = parts(pattern).slice(anchorParts.length);
  if (suffix.length !== 1 || suffix[0]!.includes("**")) return true;
  const targetParts = parts(target);
  for (let depth = anchorParts.length; depth < targetParts.length; depth++) if (matches(`/${targetParts.slice(0, depth).join("/")}`)) return true;
  return false;
}

function stringPaths(rule: PermissionRuleInput): string[] {
  return Array.isArray(rule.paths) ? rule.paths.filter((p): p is string => typeof p === "string") : [];
}

/** The deny patterns the runtime cites for deleting `target` (canonical), in the order it cites them. */
export function deleteDenyPatterns(runtime: Runtime, rules: readonly PermissionRuleInput[], target: string, hasDescendants: boolean): string[] {
  if (!hasDescendants) {
    for (const rule of rules) {
      if (!runtime.operationsCover(rule.operations, "write")) continue;
      const matched = stringPaths(rule).filter((p) => matcher(runtime, p).matches(target));
      if (matched.length === 0) continue;
      return (rule.mode ?? "allow") === "deny" ? matched : [];
    }
    return [];
  }
  const denying: string[] = [];
  const seen = new Set<string>();
  for (const rule of rules) {
    if (rule.mode !== "deny" || !runtime.operationsCover(rule.operations, "write")) continue;
    for (const pattern of stringPaths(rule)) {
      if (seen.has(pattern)) continue;
      const anchor = globAnchor(pattern);
      if (hasWildcard(pattern) ? wildcardOverlap(runtime, pattern, anchor, target) : pathsOverlap(target, anchor)) {
        seen.add(pattern);
        denying.push(pattern);
      }
    }
  }
  return denying;
}

/**
 * `deleteTargetMayHaveDescendants`: with no rules a leaf; a non-empty listing a subtree; an empty one is settled by
 * the parent's listing (`is_dir` of the entry, a subtree when there is none).
 */
export function deleteTargetMayHaveDescendants(backend: DryBackend, target: string, rulesConfigured: boolean): boolean {
  if (!rulesConfigured) return false;
  const listing = backend.ls(target);
  if (listing.error) return !listing.error.includes("not a directory");
  if (listing.files && listing.files.length > 0) return true;
  const p = parts(target);
  const parent = p.length <= 1 ? "/" : `/${p.slice(0, -1).join("/")}`;
  const parentListing = backend.ls(parent);
  if (parentListing.error) return true;
  const trim = (s: string) => {
    let end = s.length;
    while (end > 1 && s[end - 1] === "/") end--;
    return s.slice(0, end);
  };
  const targetNorm = trim(target);
  const hits = (parentListing.files ?? []).filter((e) => trim(e.path) === targetNorm);
  if (hits.length === 0) return true;
  return hits.some((e) => e.is_dir === true);
}
