/** A small, strict argument parser: unknown flags are errors (exit 2), never silently ignored. */
export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  flags: Map<string, string[]>;
}

export class UsageError extends Error {}

/**
 * `values` take one value each, given once (`--op read --op write` is an error, not "the last wins"); `repeatable`
 * ones may be given again and keep every value (`--severity`). A value is never read from the next argument when
 * that argument is itself an option (`--op --path /x`): write `--name=--value` for a value that starts with `--`.
 */
export function parseArgs(argv: readonly string[], spec: { values: readonly string[]; booleans: readonly string[]; repeatable?: readonly string[] }): ParsedArgs {
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  let command: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      if (spec.booleans.includes(name)) {
        if (eq >= 0) throw new UsageError(`--${name} takes no value`);
        flags.set(name, ["true"]);
      } else if (spec.values.includes(name)) {
        const next = argv[i + 1];
        if (eq < 0 && next !== undefined && next.startsWith("--") && next.length > 2) {
          throw new UsageError(`--${name} needs a value, and ${next} is an option (write --${name}=${next} for a value that starts with --)`);
        }
        const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
        if (value === undefined) throw new UsageError(`--${name} needs a value`);
        const given = flags.get(name);
        if (given && !spec.repeatable?.includes(name)) throw new UsageError(`--${name} is given twice ("${given[0]}" and "${value}"); give it once`);
        flags.set(name, [...(given ?? []), value]);
      } else {
        throw new UsageError(`unknown option --${name}`);
      }
    } else if (arg === "-h") {
      flags.set("help", ["true"]);
    } else if (arg.startsWith("-") && arg !== "-") {
      // `-f json` would otherwise be read as two file names. A file whose name starts with `-` goes after `--`.
      throw new UsageError(`unknown option ${arg} (options are spelt with two dashes; put a file named like this after --)`);
    } else if (command === undefined) {
      command = arg;
    } else {
      positionals.push(arg);
    }
  }
  return { command, positionals, flags };
}

export function flag(args: ParsedArgs, name: string): string | undefined {
  return args.flags.get(name)?.at(-1);
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], name: string, fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(", ")} (got "${value}")`);
  return value as T;
}

/** Fails on a flag the command does not take (accepted by the parser because another command takes it). */
export function onlyOptions(args: ParsedArgs, command: string, allowed: readonly string[]): void {
  for (const name of args.flags.keys()) {
    if (name === "help" || name === "version" || allowed.includes(name)) continue;
    throw new UsageError(`${command} takes no --${name} (its options: ${allowed.map((a) => `--${a}`).join(", ")})`);
  }
}
