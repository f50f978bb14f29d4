/*
 * QueensEngine: the solver of `queens-sat trace` in plain JavaScript (ES2017, no modules, no
 * dependencies), line for line the Rust one (src/trace/search.rs and the step recording of
 * src/trace/mod.rs), so that the HTML page can run the search itself: take another decision
 * ("what if"), stop at a breakpoint. tests/it/engine.rs runs both on many formulas and
 * compares every step field but `text`.
 *
 *   QueensEngine.run(problem, options, control) -> {steps, satisfiable, solution, assignment,
 *                                                     stats, stopped, why}
 *
 * problem: the trace JSON's top-level object; the engine reads `variables`, `clauses[i].lits`,
 *   `order`, `n`, `cell_lits` and `names`.
 * options: {algorithm: "backtracking"|"dpll"|"cdcl", heuristic: "fixed"|"vsids"|"random",
 *   seed, restarts, watches, max_steps} (the JSON's `options`; missing fields take the
 *   defaults: dpll, fixed, 1, false, false, 100000). `options.decisions` is read too when
 *   `control.decisions` is not given.
 * control (optional): {decisions: {K: lit}} takes DIMACS literal `lit` at the K-th decision
 *   (1-based) instead of the heuristic's choice; {stop: {literal: L, after: S}} stops after
 *   the first step past step S (default 0) that assigns L, {stop: {conflict: true, after: S}}
 *   after the first conflict past step S. A stopped run returns the steps so far,
 *   `stopped: true` and `why` ("literal", "conflict", or "max_steps" past options.max_steps);
 *   `satisfiable` is then null.
 * A decision that cannot be taken (its variable has a value, or is not the formula's) throws
 * an Error with the message the command line gives; so do restarts without cdcl.
 *
 * Each step: {step, kind, literal, name, level, clause, learned, resolution, watches, text,
 * board, changed, values}, as docs/formats.md describes the JSON steps (clauses numbered from
 * 1, the learned ones after the formula's).
 */
var QueensEngine = (function () {
  "use strict";

  var RESTART_UNIT = 4;
  var VSIDS_DECAY = 0.95;

  function luby(i) {
    for (;;) {
      var k = 1;
      while (Math.pow(2, k) - 1 < i) k++;
      if (Math.pow(2, k) - 1 === i) return Math.pow(2, k - 1);
      i -= Math.pow(2, k - 1) - 1;
    }
  }

  function Xorshift32(seed) {
    var s = (Math.imul(seed >>> 0, 0x9e3779b1) + 0x7f4a7c15) >>> 0;
    this.state = s === 0 ? 1 : s;
  }
  Xorshift32.prototype.next = function () {
    var x = this.state;
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    this.state = x;
    return x;
  };

  // Literals are DIMACS numbers; a literal's code indexes watch and occurrence lists.
  function code(l) {
    return l > 0 ? 2 * (l - 1) : 2 * (-l - 1) + 1;
  }
  function vidx(l) {
    return Math.abs(l) - 1;
  }

  function distinct(c) {
    var out = [];
    for (var i = 0; i < c.length; i++) if (out.indexOf(c[i]) < 0) out.push(c[i]);
    return out;
  }

  function StopRun(why) {
    this.why = why;
  }

  function run(problem, options, control) {
    options = options || {};
    control = control || {};
    var algorithm = options.algorithm || "dpll";
    var heuristic = options.heuristic || "fixed";
    var seed = options.seed === undefined || options.seed === null ? 1 : options.seed;
    var restarts = !!options.restarts;
    var watches = !!options.watches;
    var maxSteps = options.max_steps === undefined || options.max_steps === null ? 100000 : options.max_steps;
    var forced = control.decisions || options.decisions || {};
    var stop = control.stop || null;
    if (["backtracking", "dpll", "cdcl"].indexOf(algorithm) < 0) throw new Error("unknown algorithm " + algorithm);
    if (["fixed", "vsids", "random"].indexOf(heuristic) < 0) throw new Error("unknown heuristic " + heuristic);
    if (restarts && algorithm !== "cdcl") {
      throw new Error("--restarts needs --algorithm cdcl (without learning a restart would only repeat the search; this is " + algorithm + ")");
    }
    var propagating = algorithm !== "backtracking";
    var nv = problem.variables;
    var n = problem.n || 0;
    var names = problem.names;
    var cellLits = problem.cell_lits || [];
    var formula = problem.clauses.map(function (c) { return c.lits; });
    var m = formula.length;
    var order = problem.order.map(function (v) { return v - 1; });

    // ---- solver state ----
    var clauses = [];
    var occurs = [];
    var watchers = [];
    for (var i = 0; i < 2 * nv; i++) {
      occurs.push([]);
      watchers.push([]);
    }
    var watch = [];
    var queue = [];
    var value = new Array(nv).fill(null);
    var levelOf = new Array(nv).fill(0);
    var reason = new Array(nv).fill(null);
    var trail = [];
    var head = 0;
    var levels = [];
    var activity = new Array(nv).fill(0);
    var bump = 1.0;
    var rng = new Xorshift32(seed);
    var decisions = 0;
    var conflictsSinceRestart = 0;
    var lubyIndex = 1;

    function addClause(c, w) {
      var idx = clauses.length;
      for (var k = 0; k < c.length; k++) occurs[code(c[k])].push(idx);
      if (c.length > 0) {
        watchers[code(w[0])].push(idx);
        if (w[1] !== w[0]) watchers[code(w[1])].push(idx);
      }
      watch.push(w ? [w[0], w[1]] : null);
      clauses.push(c);
      return idx;
    }
    formula.forEach(function (c0) {
      var c = distinct(c0);
      var w = c.length === 0 ? null : c.length === 1 ? [c[0], c[0]] : [c[0], c[1]];
      addClause(c, w);
    });

    function val(l) {
      var v = value[vidx(l)];
      if (v === null) return null;
      return l > 0 ? v : !v;
    }
    function level() {
      return levels.length;
    }
    // "true", "false", "open", or {unit: lit}
    function status(ci) {
      var open = null;
      var count = 0;
      var c = clauses[ci];
      for (var k = 0; k < c.length; k++) {
        var v = val(c[k]);
        if (v === true) return "true";
        if (v === null) {
          count++;
          open = c[k];
        }
      }
      if (count === 0) return "false";
      if (count === 1) return { unit: open };
      return "open";
    }
    function set(l, r) {
      value[vidx(l)] = l > 0;
      levelOf[vidx(l)] = level();
      reason[vidx(l)] = r;
      trail.push(l);
    }

    // ---- step recording ----
    var steps = [];
    var stats = { decisions: 0, propagations: 0, conflicts: 0, learned: 0, restarts: 0 };
    var learned = [];
    var curLevel = 0;
    var boardView = n > 0;
    function board() {
      var rows = [];
      for (var r = 0; r < n; r++) {
        var row = "";
        for (var c = 0; c < n; c++) {
          var lits = cellLits[r * n + c];
          var anyFalse = false;
          var allTrue = true;
          for (var k = 0; k < lits.length; k++) {
            var v = val(lits[k]);
            if (v === false) anyFalse = true;
            if (v !== true) allTrue = false;
          }
          row += anyFalse ? "x" : allTrue ? "Q" : ".";
        }
        rows.push(row);
      }
      return rows;
    }
    var lastBoard = board();
    function litName(l) {
      return (l < 0 ? "\u00ac" : "") + names[vidx(l)];
    }
    function clauseLits(ci) {
      return ci < m ? formula[ci] : learned[ci - m];
    }
    function clauseText(lits) {
      return lits.length === 0 ? "\u22a5" : lits.map(litName).join(" \u2228 ");
    }
    function valuesString() {
      var s = "";
      for (var k = 0; k < nv; k++) s += value[k] === true ? "1" : value[k] === false ? "0" : ".";
      return s;
    }

    function emit(ev, note) {
      if (steps.length >= maxSteps) throw new StopRun("max_steps");
      var kind = ev.kind;
      var lit = null;
      var clause = null;
      var text = "";
      var resolution = null;
      var learnedLits = null;
      if (kind === "decide") {
        stats.decisions++;
        curLevel = ev.level;
        lit = ev.lit;
        text = names[vidx(lit)] + " = " + (lit > 0 ? "true" : "false") + " (level " + ev.level + (ev.forced ? ", chosen" : "") + ")";
      } else if (kind === "flip") {
        curLevel = ev.level;
        lit = ev.lit;
        text = litName(-lit) + " failed: try " + litName(lit) + " (level " + ev.level + ")";
      } else if (kind === "propagate") {
        stats.propagations++;
        curLevel = ev.level;
        lit = ev.lit;
        clause = ev.reason;
        text = "clause " + (clause + 1) + (clause >= m ? " (learned)" : "") + " forces " + litName(lit);
      } else if (kind === "conflict") {
        stats.conflicts++;
        curLevel = ev.level;
        clause = ev.clause;
        text = "clause " + (clause + 1) + (clause >= m ? " (learned)" : "") + ": every literal of " + clauseText(clauseLits(clause)) + " is false";
      } else if (kind === "learn") {
        stats.learned++;
        learned.push(ev.lits.slice());
        clause = ev.clause;
        learnedLits = ev.lits.slice();
        resolution = ev.resolution.map(function (r) {
          return { variable: r.variable, clause: r.clause + 1, resolvent: r.lits.slice() };
        });
        text = "clause " + (clause + 1) + " (learned): " + clauseText(ev.lits);
      } else if (kind === "backjump" || kind === "backtrack") {
        curLevel = ev.level;
        text = (kind === "backjump" ? "jump back" : "go back") + " to level " + ev.level;
      } else if (kind === "restart") {
        stats.restarts++;
        curLevel = 0;
        text = "restart after " + ev.conflicts + " conflicts";
      } else if (kind === "sat") {
        text = "every clause has a true literal";
      } else if (kind === "unsat") {
        text = "no model exists: the search has proved it";
      }
      var after = board();
      var changed = [];
      for (var r = 0; r < n; r++) {
        for (var c = 0; c < n; c++) {
          if (after[r].charAt(c) !== lastBoard[r].charAt(c)) changed.push([r + 1, c + 1]);
        }
      }
      lastBoard = after;
      var w = null;
      if (note) {
        w = {
          moved: note.moved.map(function (mv) { return { clause: mv[0] + 1, from: mv[1], to: mv[2] }; }),
          unit: note.unit.map(function (u) { return u + 1; }),
          watched: note.watched.slice()
        };
      }
      var step = {
        step: steps.length + 1,
        kind: kind,
        literal: lit,
        name: lit === null ? null : litName(lit),
        level: curLevel,
        clause: clause === null ? null : clause + 1,
        learned: learnedLits,
        resolution: resolution,
        watches: w,
        text: text,
        board: after,
        changed: changed,
        values: boardView ? null : valuesString()
      };
      steps.push(step);
      if (stop && step.step > (stop.after || 0)) {
        if (stop.literal !== undefined && stop.literal !== null && lit === stop.literal) throw new StopRun("literal");
        if (stop.conflict && kind === "conflict") throw new StopRun("conflict");
      }
    }
    function emptyNote() {
      return watches ? { moved: [], unit: [], watched: [] } : null;
    }

    // ---- the solver (src/trace/search.rs) ----
    function visitWatchers(f, note) {
      var list = watchers[code(f)];
      watchers[code(f)] = [];
      var keep = [];
      var conflict = null;
      for (var k = 0; k < list.length; k++) {
        var c = list[k];
        if (conflict !== null) {
          keep.push(c);
          continue;
        }
        var w = watch[c];
        var slot = w[0] === f ? 0 : 1;
        var other = w[1 - slot];
        if (val(other) === true) {
          keep.push(c);
          continue;
        }
        var repl = null;
        var cl = clauses[c];
        for (var j = 0; j < cl.length; j++) {
          var q = cl[j];
          if (q !== w[0] && q !== w[1] && val(q) !== false) {
            repl = q;
            break;
          }
        }
        if (repl !== null) {
          w[slot] = repl;
          watchers[code(repl)].push(c);
          note.moved.push([c, f, repl]);
          continue;
        }
        keep.push(c);
        if (val(other) === null) {
          note.unit.push(c);
          if (propagating) queue.push([other, c]);
        } else {
          conflict = c;
        }
      }
      watchers[code(f)] = keep;
      return conflict;
    }

    function assign(l, r, ev) {
      set(l, r);
      if (watches) {
        var note = { moved: [], unit: [], watched: [] };
        var conflict = visitWatchers(-l, note);
        emit(ev, note);
        return conflict;
      }
      emit(ev, null);
      if (propagating) return null;
      var occ = occurs[code(-l)];
      for (var k = 0; k < occ.length; k++) {
        if (status(occ[k]) === "false") return occ[k];
      }
      return null;
    }

    function undoTo(lv) {
      var start = lv < levels.length ? levels[lv].start : trail.length;
      for (var k = start; k < trail.length; k++) {
        value[vidx(trail[k])] = null;
        reason[vidx(trail[k])] = null;
      }
      trail.length = start;
      levels.length = lv;
      head = trail.length;
      queue = [];
    }

    function propagate() {
      if (!propagating) return null;
      if (watches) {
        while (queue.length > 0) {
          var item = queue.shift();
          var l = item[0];
          var c = item[1];
          var v = val(l);
          if (v === true) continue;
          if (v === false) return c;
          var conflict = assign(l, c, { kind: "propagate", lit: l, level: level(), reason: c });
          if (conflict !== null) return conflict;
        }
        return null;
      }
      while (head < trail.length) {
        var falsified = -trail[head];
        head++;
        var occ = occurs[code(falsified)];
        for (var k = 0; k < occ.length; k++) {
          var ci = occ[k];
          var st = status(ci);
          if (st === "false") return ci;
          if (typeof st === "object") {
            assign(st.unit, ci, { kind: "propagate", lit: st.unit, level: level(), reason: ci });
          }
        }
      }
      return null;
    }

    function analyze(conflict) {
      var current = level();
      var seen = new Array(nv).fill(false);
      var lits = [];
      var pending = 0;
      var index = trail.length;
      var clause = conflict;
      var resolved = null;
      var resolvent = [];
      var resolution = [];
      for (;;) {
        if (resolved !== null) {
          var neg = -resolved;
          resolvent = resolvent.filter(function (q) { return q !== neg; });
        }
        var cl = clauses[clause];
        for (var k = 0; k < cl.length; k++) {
          var q = cl[k];
          var v = vidx(q);
          if ((resolved !== null && v === vidx(resolved)) || levelOf[v] === 0) continue;
          if (resolvent.indexOf(q) < 0) resolvent.push(q);
          if (seen[v]) continue;
          seen[v] = true;
          if (levelOf[v] === current) pending++;
          else lits.push(q);
        }
        resolution.push({
          variable: resolved === null ? null : vidx(resolved) + 1,
          clause: clause,
          lits: resolvent.slice()
        });
        do {
          index--;
        } while (!seen[vidx(trail[index])]);
        var p = trail[index];
        seen[vidx(p)] = false;
        pending--;
        resolved = p;
        if (pending === 0) {
          lits.unshift(-p);
          break;
        }
        clause = reason[vidx(p)];
      }
      var back = 0;
      for (var j = 1; j < lits.length; j++) back = Math.max(back, levelOf[vidx(lits[j])]);
      return { lits: lits, back: back, resolution: resolution };
    }

    function bumpVar(v) {
      activity[v] += bump;
      if (activity[v] > 1e100) {
        for (var k = 0; k < nv; k++) activity[k] *= 1e-100;
        bump *= 1e-100;
      }
    }
    function bumpAndDecay(lits) {
      if (heuristic !== "vsids") return;
      var done = new Array(nv).fill(false);
      for (var k = 0; k < lits.length; k++) {
        var v = vidx(lits[k]);
        if (!done[v]) {
          done[v] = true;
          bumpVar(v);
        }
      }
      bump /= VSIDS_DECAY;
    }

    function nextDecision() {
      var k = decisions + 1;
      if (Object.prototype.hasOwnProperty.call(forced, String(k))) {
        var l = Number(forced[String(k)]);
        if (vidx(l) >= nv || l === 0) {
          throw new Error("--decide " + k + "=" + l + ": the formula has " + nv + " variables");
        }
        if (value[vidx(l)] !== null) {
          throw new Error("--decide " + k + "=" + l + ": variable " + (vidx(l) + 1) + " already has a value then");
        }
        return { lit: l, forced: true };
      }
      var v = null;
      var j;
      if (heuristic === "fixed") {
        for (j = 0; j < order.length; j++) {
          if (value[order[j]] === null) {
            v = order[j];
            break;
          }
        }
      } else if (heuristic === "random") {
        var open = [];
        for (j = 0; j < order.length; j++) if (value[order[j]] === null) open.push(order[j]);
        if (open.length > 0) v = open[rng.next() % open.length];
      } else {
        for (j = 0; j < order.length; j++) {
          var u = order[j];
          if (value[u] !== null) continue;
          if (v === null || activity[u] > activity[v]) v = u;
        }
      }
      return v === null ? null : { lit: v + 1, forced: false };
    }

    function start() {
      for (var ci = 0; ci < clauses.length; ci++) {
        if (!propagating || watches) {
          var len = clauses[ci].length;
          if (len === 0) return ci;
          if (len === 1 && propagating) {
            var l = clauses[ci][0];
            var v = val(l);
            if (v === true) continue;
            if (v === false) return ci;
            var c = assign(l, ci, { kind: "propagate", lit: l, level: 0, reason: ci });
            if (c !== null) return c;
            c = propagate();
            if (c !== null) return c;
          }
          continue;
        }
        var st = status(ci);
        if (typeof st === "object") {
          assign(st.unit, ci, { kind: "propagate", lit: st.unit, level: 0, reason: ci });
        } else if (st === "false") {
          return ci;
        }
      }
      return propagate();
    }

    // {done: true} when the search is over (no model), else {conflict: c or null}.
    function resolve(conflict) {
      conflictsSinceRestart++;
      if (level() === 0) return { done: true };
      if (algorithm === "cdcl") {
        var a = analyze(conflict);
        var bumped = [];
        a.resolution.forEach(function (r) { bumped = bumped.concat(r.lits); });
        bumpAndDecay(bumped);
        var second = null;
        for (var k = 1; k < a.lits.length; k++) {
          if (levelOf[vidx(a.lits[k])] === a.back) {
            second = a.lits[k];
            break;
          }
        }
        var w = [a.lits[0], second === null ? a.lits[0] : second];
        var ci = addClause(a.lits.slice(), w);
        var note = watches ? { moved: [], unit: [], watched: distinct(w) } : null;
        emit({ kind: "learn", clause: ci, lits: a.lits.slice(), resolution: a.resolution }, note);
        undoTo(a.back);
        emit({ kind: "backjump", level: a.back }, emptyNote());
        return { conflict: assign(a.lits[0], ci, { kind: "propagate", lit: a.lits[0], level: a.back, reason: ci }) };
      }
      bumpAndDecay(clauses[conflict]);
      var kk = -1;
      for (var j = levels.length - 1; j >= 0; j--) {
        if (!levels[j].flipped) {
          kk = j;
          break;
        }
      }
      if (kk < 0) return { done: true };
      var decision = levels[kk].decision;
      undoTo(kk);
      emit({ kind: "backtrack", level: kk }, emptyNote());
      levels.push({ start: trail.length, decision: -decision, flipped: true });
      return { conflict: assign(-decision, null, { kind: "flip", lit: -decision, level: kk + 1 }) };
    }

    function allTrue() {
      for (var ci = 0; ci < clauses.length; ci++) if (status(ci) !== "true") return false;
      return true;
    }

    function search() {
      var conflict = start();
      for (;;) {
        if (conflict === null) conflict = propagate();
        if (conflict !== null) {
          emit({ kind: "conflict", clause: conflict, level: level() }, emptyNote());
          var r = resolve(conflict);
          if (r.done) {
            emit({ kind: "unsat" }, emptyNote());
            return false;
          }
          conflict = r.conflict;
          continue;
        }
        if (allTrue()) {
          emit({ kind: "sat" }, emptyNote());
          return true;
        }
        if (restarts && algorithm === "cdcl" && conflictsSinceRestart >= RESTART_UNIT * luby(lubyIndex)) {
          var conflicts = conflictsSinceRestart;
          lubyIndex++;
          conflictsSinceRestart = 0;
          if (level() > 0) {
            undoTo(0);
            emit({ kind: "restart", conflicts: conflicts }, emptyNote());
          }
        }
        var d = nextDecision();
        if (d === null) {
          emit({ kind: "sat" }, emptyNote());
          return true;
        }
        decisions++;
        levels.push({ start: trail.length, decision: d.lit, flipped: false });
        conflict = assign(d.lit, null, { kind: "decide", lit: d.lit, level: level(), forced: d.forced });
      }
    }

    var sat;
    try {
      sat = search();
    } catch (e) {
      if (e instanceof StopRun) {
        return { steps: steps, satisfiable: null, solution: null, assignment: null, stats: stats, stopped: true, why: e.why };
      }
      throw e;
    }
    var solution = null;
    var assignment = null;
    if (sat) {
      assignment = [];
      for (var k = 0; k < nv; k++) if (value[k] !== null) assignment.push(value[k] ? k + 1 : -(k + 1));
      if (n > 0) {
        for (k = 0; k < nv; k++) if (value[k] === null) value[k] = false;
        var rows = board();
        solution = [];
        for (var r = 0; r < n && solution !== null; r++) {
          var q = [];
          for (var c = 0; c < n; c++) if (rows[r].charAt(c) === "Q") q.push(c + 1);
          if (q.length === 1) solution.push(q[0]);
          else solution = null;
        }
      }
    }
    return { steps: steps, satisfiable: sat, solution: solution, assignment: assignment, stats: stats, stopped: false, why: null };
  }

  return { run: run, luby: luby, Xorshift32: Xorshift32 };
})();
if (typeof module !== "undefined") module.exports = QueensEngine;
