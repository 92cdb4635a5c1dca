// Pike VM over code points. `Char` states consume one code point; the others are epsilon moves.
import { sharedCache, weakCache } from "../../caches";
import { type Ast, type CharSet, astToJs, setHas } from "./pyRe";

const OP_CHAR = 0; // `arg` = code point
const OP_SET = 1; // `arg` = index into `sets`
const OP_ANY = 2;
const OP_SPLIT = 3; // `arg` = second branch
const OP_BOL = 4;
const OP_EOL = 5;
const OP_LOOK = 6; // `arg` = index into `looks`, one's complement when negative
const OP_MATCH = 7;

export interface Program {
  readonly op: Uint8Array;
  readonly next: Int32Array;
  readonly arg: Int32Array;
  readonly sets: readonly CharSet[];
  /** Lookahead bodies are tiny and bounded (`[/]`, `\.{1,2}(?:$|[/])`, …), so sticky native regexes decide them. */
  readonly looks: readonly RegExp[];
  readonly start: number;
  /** Reused between runs: a state is "seen" at a step when its mark equals that step's generation. */
  readonly mark: Int32Array;
  epoch: number;
}

export class ProgramBuilder {
  private size = 0;
  private op = new Uint8Array(64);
  private next = new Int32Array(64);
  private arg = new Int32Array(64);
  private sets: CharSet[] = [];
  private readonly setIndex = new Map<CharSet, number>();
  private looks: RegExp[] = [];
  private readonly lookIndex = new Map<RegExp, number>();

  /**
   * One builder for every program: a cold `check` compiles hundreds of patterns, and allocating three typed
   * arrays and three maps for each was a tenth of compiling one. `build` copies out what the program keeps.
   */
  private static readonly scratch = new ProgramBuilder();

  private add(op: number, next: number, arg = 0): number {
    if (this.size === this.op.length) {
      const grow = <T extends Uint8Array | Int32Array>(a: T, b: T): T => (b.set(a), b);
      this.op = grow(this.op, new Uint8Array(this.size * 2));
      this.next = grow(this.next, new Int32Array(this.size * 2));
      this.arg = grow(this.arg, new Int32Array(this.size * 2));
    }
    this.op[this.size] = op;
    this.next[this.size] = next;
    this.arg[this.size] = arg;
    return this.size++;
  }

  static build(ast: Ast): Program {
    const b = ProgramBuilder.scratch;
    b.size = 0;
    b.sets = [];
    b.looks = [];
    b.setIndex.clear();
    b.lookIndex.clear();
    const start = b.compile(ast, b.add(OP_MATCH, -1));
    const program: Program = {
      op: b.op.slice(0, b.size),
      next: b.next.slice(0, b.size),
      arg: b.arg.slice(0, b.size),
      sets: b.sets,
      looks: b.looks,
      start,
      mark: new Int32Array(b.size).fill(-1),
      epoch: 0,
    };
    // Nothing of this program stays reachable from the builder (a huge pattern's arrays are let go).
    if (b.op.length > 4096) {
      b.op = new Uint8Array(64);
      b.next = new Int32Array(64);
      b.arg = new Int32Array(64);
    }
    b.sets = [];
    b.looks = [];
    b.setIndex.clear();
    b.lookIndex.clear();
    return program;
  }

  /** Thompson construction in continuation-passing style: returns the entry state of `ast` followed by `next`. */
  private compile(ast: Ast, next: number): number {
    switch (ast.t) {
      case "lit": {
        let entry = next;
        for (let k = ast.cps.length - 1; k >= 0; k--) entry = this.add(OP_CHAR, entry, ast.cps[k]!);
        return entry;
      }
      case "set": {
        let index = this.setIndex.get(ast.set);
        if (index === undefined) {
          index = this.sets.push(ast.set) - 1;
          this.setIndex.set(ast.set, index);
        }
        return this.add(OP_SET, next, index);
      }
      case "dot":
        return this.add(OP_ANY, next);
      case "seq": {
        let entry = next;
        for (let k = ast.items.length - 1; k >= 0; k--) entry = this.compile(ast.items[k]!, entry);
        return entry;
      }
      case "alt": {
        let entry = this.compile(ast.alts[ast.alts.length - 1]!, next);
        for (let k = ast.alts.length - 2; k >= 0; k--) {
          const branch = this.compile(ast.alts[k]!, next);
          entry = this.add(OP_SPLIT, branch, entry);
        }
        return entry;
      }
      case "rep": {
        let entry: number;
        if (ast.max === Infinity) {
          const loop = this.add(OP_SPLIT, -1, next);
          this.next[loop] = this.compile(ast.body, loop);
          entry = loop;
        } else {
          entry = next;
          for (let k = ast.min; k < ast.max; k++) {
            const body = this.compile(ast.body, entry);
            entry = this.add(OP_SPLIT, body, next);
          }
        }
        for (let k = 0; k < ast.min; k++) entry = this.compile(ast.body, entry);
        return entry;
      }
      case "bol":
        return this.add(OP_BOL, next);
      case "eol":
        return this.add(OP_EOL, next);
      case "look": {
        // Parsed fragments are shared, so most lookaheads are found by identity before serialising.
        let re = LOOK_BY_AST.get(ast.body);
        if (!re) LOOK_BY_AST.set(ast.body, (re = lookRegex(astToJs(ast.body))));
        let index = this.lookIndex.get(re);
        if (index === undefined) {
          index = this.looks.push(re) - 1;
          this.lookIndex.set(re, index);
        }
        return this.add(OP_LOOK, next, ast.negate ? ~index : index);
      }
    }
  }
}

/**
 * The sticky regex of a lookahead body, one per distinct source for every program: every pattern has the same
 * few (`[/]`, `\.{1,2}(?:$|[/])`, …), and V8 compiles a regex again for each new RegExp object. Sharing is safe:
 * `lookHolds` sets `lastIndex` before each test and nothing runs in between.
 */
const LOOK_REGEXES = sharedCache<string, RegExp>("runtime/pyGlob/pikeVm.LOOK_REGEXES", { entries: 1024 });
/** The same, found by the (shared, cached) body of a parsed fragment before it is written out as source. */
const LOOK_BY_AST = weakCache<Ast, RegExp>("runtime/pyGlob/pikeVm.LOOK_BY_AST");

function lookRegex(source: string): RegExp {
  return LOOK_REGEXES.get(source) ?? LOOK_REGEXES.set(source, new RegExp(source, "suy"));
}

/**
 * Per-run state of `runProgram` (kept out of closures: they cost an allocation per match). There is one, reused by
 * every run: `runProgram` never re-enters itself (lookaheads run on native regexes), and a rule list calls it
 * hundreds of times per decision.
 */
interface Run {
  prog: Program;
  s: string;
  epoch: number;
  /** Work stack of `addClosure`: each state it marks pushes at most two, so twice the states (+1) suffices. */
  stack: Int32Array;
  /** The consuming states reached at the current position and at the next one, with their counts. */
  current: Int32Array;
  following: Int32Array;
  followingCount: number;
  lookCache: Map<number, boolean> | undefined;
  matched: boolean;
}

const RUN: Run = {
  prog: undefined as unknown as Program,
  s: "",
  epoch: 0,
  stack: new Int32Array(64),
  current: new Int32Array(64),
  following: new Int32Array(64),
  followingCount: 0,
  lookCache: undefined,
  matched: false,
};

/**
 * Lookahead answers of the current run, by `look × (length + 1) + position`: an entry is valid when its stamp is
 * the run's (`lookRun`), so nothing is cleared between runs. Runs whose key space is larger than this (very long
 * paths) use `run.lookCache` instead.
 */
const LOOK_TABLE_LIMIT = 1 << 16;
let lookStamps = new Int32Array(256);
let lookAnswers = new Uint8Array(256);
let lookRun = 0;

function lookHolds(run: Run, ref: number, pos: number): boolean {
  const index = ref >= 0 ? ref : ~ref;
  const key = index * (run.s.length + 1) + pos;
  let hit: boolean | undefined;
  if (run.lookCache === undefined) {
    if (lookStamps[key] === lookRun) {
      hit = lookAnswers[key] === 1;
    } else {
      const re = run.prog.looks[index]!;
      re.lastIndex = pos;
      hit = re.test(run.s);
      lookStamps[key] = lookRun;
      lookAnswers[key] = hit ? 1 : 0;
    }
  } else {
    hit = run.lookCache.get(key);
    if (hit === undefined) {
      const re = run.prog.looks[index]!;
      re.lastIndex = pos;
      hit = re.test(run.s);
      run.lookCache.set(key, hit);
    }
  }
  return ref >= 0 ? hit : !hit;
}

/** Makes the lookahead table ready for a run over `length` code units with `looks` lookaheads. */
function startLookRun(run: Run, looks: number, length: number): void {
  const keys = looks * (length + 1);
  if (keys > LOOK_TABLE_LIMIT) {
    run.lookCache = new Map();
    return;
  }
  run.lookCache = undefined;
  if (keys > lookStamps.length) {
    let size = lookStamps.length;
    while (size < keys) size *= 2;
    lookStamps = new Int32Array(size);
    lookAnswers = new Uint8Array(size);
    lookRun = 0;
  }
  // Stamps start at 0 in a fresh table, so runs are numbered from 1; wrap-around clears the table.
  if (++lookRun === 0x7fffffff) {
    lookStamps.fill(0);
    lookRun = 1;
  }
}

/** Follow epsilon moves from `entry` at `pos`, adding the consuming states reached to `run.following`. */
function addClosure(run: Run, entry: number, pos: number): void {
  const { op, next, arg, mark } = run.prog;
  const { s, stack, following } = run;
  const gen = run.epoch + pos;
  let top = 0;
  stack[top++] = entry;
  while (top > 0) {
    const st = stack[--top]!;
    if (mark[st] === gen) continue;
    mark[st] = gen;
    switch (op[st]) {
      case OP_CHAR:
      case OP_SET:
      case OP_ANY:
        following[run.followingCount++] = st;
        break;
      case OP_SPLIT:
        stack[top++] = arg[st]!;
        stack[top++] = next[st]!;
        break;
      case OP_BOL:
        if (pos === 0) stack[top++] = next[st]!;
        break;
      case OP_EOL:
        if (pos === s.length || (pos === s.length - 1 && s.charCodeAt(pos) === 10)) stack[top++] = next[st]!;
        break;
      case OP_LOOK:
        if (lookHolds(run, arg[st]!, pos)) stack[top++] = next[st]!;
        break;
      case OP_MATCH:
        if (pos === s.length) run.matched = true;
        break;
    }
  }
}

/** Python `re.fullmatch` of the program against `s` (positions are UTF-16 indexes, steps are code points). */
export function runProgram(prog: Program, s: string): boolean {
  const { op, next, arg, sets, mark } = prog;
  const length = s.length;
  // Generations are `epoch + position`; move the epoch past this run so marks never collide across runs.
  if (prog.epoch > 0x3fffffff - length) {
    mark.fill(-1);
    prog.epoch = 0;
  }
  const run = RUN;
  const states = op.length;
  if (run.current.length < states) {
    run.current = new Int32Array(states);
    run.following = new Int32Array(states);
  }
  if (run.stack.length < 2 * states + 1) run.stack = new Int32Array(2 * states + 1);
  run.prog = prog;
  run.s = s;
  run.epoch = prog.epoch;
  startLookRun(run, prog.looks.length, length);
  run.matched = false;
  prog.epoch += length + 2;
  // The closure at position 0 is collected into `following`, then becomes `current`.
  run.followingCount = 0;
  addClosure(run, prog.start, 0);
  let pos = 0;
  while (!run.matched && run.followingCount > 0 && pos < length) {
    const current = run.following;
    const count = run.followingCount;
    run.following = run.current;
    run.current = current;
    run.followingCount = 0;
    const cp = s.codePointAt(pos)!;
    const after = pos + (cp > 0xffff ? 2 : 1);
    for (let k = 0; k < count; k++) {
      const st = current[k]!;
      const o = op[st];
      if (o === OP_ANY || (o === OP_CHAR ? arg[st] === cp : setHas(sets[arg[st]!]!, cp))) {
        addClosure(run, next[st]!, after);
      }
    }
    pos = after;
  }
  return run.matched;
}

/**
 * A RegExp whose matching runs on the Pike VM, for patterns whose JavaScript source V8 cannot take (it parses
 * sources eagerly and compiles them recursively: ~1 s and a stack overflow for a 100k-character glob), so
 * `regexes` stays usable for any pattern.
 */
export class PyGlobRegExp extends RegExp {
  private fullSource: string | undefined;

  constructor(
    private readonly sourceParts: readonly string[],
    private readonly program: Program,
  ) {
    super("(?:)", "su");
  }

  override get source(): string {
    return (this.fullSource ??= `^(?:${this.sourceParts.join("")})$`);
  }

  override exec(input: string): RegExpExecArray | null {
    const s = String(input);
    if (!runProgram(this.program, s)) return null;
    const result = [s] as unknown as RegExpExecArray;
    result.index = 0;
    result.input = s;
    return result;
  }
}
