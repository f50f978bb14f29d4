(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var data = JSON.parse(document.getElementById("trace-data").textContent);
  var n = data.n || 0;
  var recorded = data.steps;
  var formulaClauses = data.clauses.length;
  // The number of the formula's first clause: the clause list's own numbering.
  var clauseList = document.getElementById("clauses");
  var firstClause = parseInt(clauseList.getAttribute("start"), 10) || 0;
  var main = document.getElementById("trace");
  var engine = typeof window.QueensEngine === "object" ? window.QueensEngine : null;

  // The steps shown: the recorded ones, or those of a what-if branch (made by the engine).
  var steps = recorded;
  var branch = "recorded";
  var branchFrom = 0;
  var learnedOf = {};
  var highlighted = null;
  var current = 0;

  // The variable of each cell, for the cells that a variable stands for alone.
  var cellVar = {};
  (data.cells || []).forEach(function (cell, i) {
    if (cell) cellVar[cell[0] + "-" + cell[1]] = i + 1;
  });

  function $(id) {
    return document.getElementById(id);
  }

  function el(name, attrs, text) {
    var e = document.createElement(name);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function svg(name, attrs, text) {
    var e = document.createElementNS(SVG, name);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function indexLearned() {
    learnedOf = {};
    steps.forEach(function (s, i) {
      if (s.kind === "learn" && s.learned) learnedOf[s.clause] = { lits: s.learned, step: i + 1 };
    });
  }

  /// The literals of clause number `k` (the formula's, then the learned ones).
  function clauseLits(k) {
    var i = k - firstClause;
    if (i >= 0 && i < formulaClauses) return data.clauses[i].lits;
    return learnedOf[k] ? learnedOf[k].lits : [];
  }

  function litName(l) {
    var name = (data.names && data.names[Math.abs(l) - 1]) || "x" + Math.abs(l);
    return l < 0 ? "\u00ac" + name : name;
  }

  function clauseWords(lits) {
    return lits.length ? lits.map(litName).join(" \u2228 ") : "\u22a5";
  }

  function clauseText(k) {
    var i = k - firstClause;
    if (i >= 0 && i < formulaClauses) {
      var c = data.clauses[i];
      return c.meaning ? c.text + "  (" + c.meaning + ")" : c.text;
    }
    var li = $("clause-" + k);
    if (li && li.getAttribute("data-text")) return li.getAttribute("data-text");
    return learnedOf[k] ? "learned " + clauseWords(learnedOf[k].lits) : "";
  }

  /// A step in words: the recorded text, or (for a step the engine made) the page's own.
  function stepText(s) {
    if (s.text) return s.text;
    switch (s.kind) {
      case "decide":
        return litName(s.literal) + " (decision, level " + s.level + ")";
      case "flip":
        return litName(-s.literal) + " failed: try " + litName(s.literal) + " (level " + s.level + ")";
      case "propagate": {
        var others = clauseLits(s.clause).filter(function (l) { return l !== s.literal; });
        var because = others.map(function (l) { return litName(-l); });
        return "clause " + s.clause + ": " +
          (because.length ? because.join(", ") + (because.length > 1 ? " force " : " forces ") : "") +
          litName(s.literal) + (because.length ? "" : " holds");
      }
      case "conflict":
        return "every literal of clause " + s.clause + " is false: " + clauseWords(clauseLits(s.clause));
      case "learn":
        return "learned clause " + s.clause + ": " + clauseWords(s.learned || []);
      case "backjump":
        return "jump back to level " + s.level;
      case "backtrack":
        return "go back to level " + s.level;
      case "restart":
        return "restart: back to level 0";
      case "sat":
        return "every clause has a true literal: a solution";
      case "unsat":
        return "no solution exists: the search has proved it";
      default:
        return s.kind;
    }
  }

  function emptyBoard() {
    var rows = [];
    var row = new Array(n + 1).join(".");
    for (var r = 0; r < n; r++) rows.push(row);
    return rows;
  }

  function stateName(ch) {
    return ch === "Q" ? "queen" : ch === "x" ? "excluded" : "unknown";
  }

  // ---- The assignment after a step: the trail, replayed from the steps ----

  /// The trail after step `k` (0: the start): one entry per assigned literal, in order, with
  /// its level, its reason clause (null for a decision or a flip) and the step that set it.
  function trailAt(k) {
    var trail = [];
    for (var i = 0; i < k; i++) {
      var s = steps[i];
      if (s.kind === "decide" || s.kind === "flip" || s.kind === "propagate") {
        trail.push({
          lit: s.literal,
          level: s.level,
          reason: s.kind === "propagate" ? s.clause : null,
          step: i + 1,
          kind: s.kind
        });
      } else if (s.kind === "backtrack" || s.kind === "backjump" || s.kind === "restart") {
        while (trail.length && trail[trail.length - 1].level > s.level) trail.pop();
      }
    }
    return trail;
  }

  // ---- The implication graph of the latest conflict ----

  /// The conflict the step at `k` belongs to: the conflict step itself, or the steps right
  /// after it that assign nothing (learn, backjump, backtrack, unsat). 0 when none.
  function conflictOf(k) {
    for (var i = k; i >= 1; i--) {
      var kind = steps[i - 1].kind;
      if (kind === "conflict") return i;
      if (kind !== "learn" && kind !== "backjump" && kind !== "backtrack" && kind !== "unsat") return 0;
    }
    return 0;
  }

  /// The graph of the conflict at step `c`: its nodes (trail entries), edges and first UIP.
  function implicationGraph(c) {
    var conflict = steps[c - 1];
    var trail = trailAt(c);
    var level = conflict.level;
    var at = {};
    trail.forEach(function (e, i) { at[Math.abs(e.lit)] = i; });
    var entry = function (l) { return at[Math.abs(l)]; };
    var inGraph = {};
    var cone = {};
    // The current level's literals, with the literals of their reasons.
    trail.forEach(function (e, i) {
      if (e.level !== level) return;
      inGraph[i] = true;
      if (e.reason !== null) {
        clauseLits(e.reason).forEach(function (q) {
          if (q !== e.lit && entry(q) !== undefined) inGraph[entry(q)] = true;
        });
      }
    });
    // The conflict's cone: what the false clause depends on, back through the reasons.
    var todo = [];
    var conflictLits = clauseLits(conflict.clause);
    conflictLits.forEach(function (q) {
      var i = entry(q);
      if (i !== undefined) todo.push(i);
    });
    while (todo.length) {
      var i = todo.pop();
      if (cone[i]) continue;
      cone[i] = true;
      inGraph[i] = true;
      var e = trail[i];
      if (e.level === level && e.reason !== null) {
        clauseLits(e.reason).forEach(function (q) {
          var j = entry(q);
          if (q !== e.lit && j !== undefined) todo.push(j);
        });
      }
    }
    var nodes = Object.keys(inGraph).map(Number).sort(function (a, b) { return a - b; });
    var edges = [];
    nodes.forEach(function (i) {
      var e = trail[i];
      if (e.level !== level || e.reason === null) return;
      clauseLits(e.reason).forEach(function (q) {
        var j = entry(q);
        if (q !== e.lit && j !== undefined && inGraph[j]) edges.push([j, i, e.reason]);
      });
    });
    conflictLits.forEach(function (q) {
      var j = entry(q);
      if (j !== undefined) edges.push([j, -1, conflict.clause]);
    });
    return {
      trail: trail,
      level: level,
      nodes: nodes,
      cone: cone,
      edges: edges,
      clause: conflict.clause,
      uip: firstUip(trail, at, level, conflictLits)
    };
  }

  /// The first unique implication point: resolving the false clause with the reasons of the
  /// current level's literals, latest first, until one literal of that level is left. Returns
  /// its trail index, or -1 (a conflict on level 0).
  function firstUip(trail, at, level, conflictLits) {
    var seen = {};
    var pending = 0;
    var clause = conflictLits;
    var resolved = 0;
    var index = trail.length;
    for (;;) {
      clause.forEach(function (q) {
        var v = Math.abs(q);
        if (v === resolved || seen[v] || at[v] === undefined) return;
        if (trail[at[v]].level !== level || level === 0) return;
        seen[v] = true;
        pending++;
      });
      if (pending === 0) return -1;
      do {
        index--;
      } while (index >= 0 && !seen[Math.abs(trail[index].lit)]);
      if (index < 0) return -1;
      var p = trail[index];
      seen[Math.abs(p.lit)] = false;
      pending--;
      resolved = Math.abs(p.lit);
      if (pending === 0 || p.reason === null) return index;
      clause = clauseLits(p.reason);
    }
  }

  function drawGraph(k) {
    var box = $("graph");
    while (box.firstChild) box.removeChild(box.firstChild);
    var c = conflictOf(k);
    var note = $("graph-note");
    if (!c) {
      box.setAttribute("data-conflict", "");
      box.setAttribute("data-uip", "");
      box.setAttribute("data-nodes", "0");
      box.setAttribute("viewBox", "0 0 10 10");
      box.setAttribute("height", "0");
      note.textContent = "No conflict at this step. Run until the next conflict to see its graph.";
      return;
    }
    var g = implicationGraph(c);
    var uipLit = g.uip >= 0 ? g.trail[g.uip].lit : null;
    box.setAttribute("data-conflict", String(g.clause));
    box.setAttribute("data-conflict-step", String(c));
    box.setAttribute("data-uip", uipLit === null ? "" : String(uipLit));
    box.setAttribute("data-nodes", String(g.nodes.length));
    note.textContent = "The conflict of step " + c + " (clause " + g.clause + ", level " + g.level + "): " +
      "an arrow from each false literal of a reason to the literal it forced. " +
      (uipLit === null
        ? "The conflict depends on no decision."
        : "First UIP: " + litName(uipLit) + " (every path from the decision of level " + g.level +
          " to the conflict passes through it).");
    // Layers: a literal one column right of the latest literal it depends on.
    var depth = {};
    var preds = {};
    g.edges.forEach(function (e) { (preds[e[1]] = preds[e[1]] || []).push(e[0]); });
    g.nodes.forEach(function (i) {
      var d = 0;
      (preds[i] || []).forEach(function (j) { d = Math.max(d, depth[j] + 1); });
      depth[i] = d;
    });
    var last = 0;
    (preds[-1] || []).forEach(function (j) { last = Math.max(last, depth[j] + 1); });
    depth[-1] = last;
    var rows = {};
    var pos = {};
    var W = 150, H = 44, NW = 128, NH = 28;
    var maxRow = 0;
    g.nodes.concat([-1]).forEach(function (i) {
      var d = depth[i];
      var row = rows[d] || 0;
      rows[d] = row + 1;
      maxRow = Math.max(maxRow, row + 1);
      pos[i] = { x: 10 + d * W, y: 10 + row * H };
    });
    var width = 20 + last * W + NW;
    var height = 20 + maxRow * H;
    box.setAttribute("viewBox", "0 0 " + width + " " + height);
    box.setAttribute("width", String(Math.min(width, 1200)));
    box.setAttribute("height", String(Math.round(height * Math.min(width, 1200) / width)));
    g.edges.forEach(function (e) {
      var a = pos[e[0]], b = pos[e[1]];
      var x1 = a.x + NW, y1 = a.y + NH / 2, x2 = b.x, y2 = b.y + NH / 2;
      var line = svg("line", { x1: x1, y1: y1, x2: x2, y2: y2, "class": "edge" + (e[1] === -1 ? " to-conflict" : "") });
      line.appendChild(svg("title", {}, "clause " + e[2]));
      box.appendChild(line);
      var len = Math.sqrt((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1)) || 1;
      var ux = (x2 - x1) / len, uy = (y2 - y1) / len;
      var p = [x2, y2, x2 - 9 * ux + 4 * uy, y2 - 9 * uy - 4 * ux, x2 - 9 * ux - 4 * uy, y2 - 9 * uy + 4 * ux];
      box.appendChild(svg("polygon", { points: p.join(" "), "class": "arrow" }));
    });
    g.nodes.forEach(function (i) {
      var e = g.trail[i];
      var kind = e.level !== g.level ? "earlier" : e.reason === null ? "decision" : "implied";
      var node = svg("g", {
        id: "node-" + e.lit,
        "class": "node " + kind + (g.cone[i] ? " cone" : ""),
        "data-lit": e.lit,
        "data-level": e.level,
        "data-step": e.step,
        "data-uip": i === g.uip ? "true" : "false"
      });
      node.appendChild(svg("rect", { x: pos[i].x, y: pos[i].y, width: NW, height: NH, rx: 8 }));
      node.appendChild(svg("text", { x: pos[i].x + NW / 2, y: pos[i].y + NH / 2 }, litName(e.lit) + " @" + e.level));
      node.appendChild(svg("title", {}, (e.reason === null ? "decision" : "forced by clause " + e.reason) + ", step " + e.step + (i === g.uip ? "; the first UIP" : "")));
      box.appendChild(node);
    });
    var k0 = svg("g", { id: "node-conflict", "class": "node conflict", "data-clause": g.clause });
    k0.appendChild(svg("rect", { x: pos[-1].x, y: pos[-1].y, width: NW, height: NH, rx: 8 }));
    k0.appendChild(svg("text", { x: pos[-1].x + NW / 2, y: pos[-1].y + NH / 2 }, "\u26a1 clause " + g.clause));
    box.appendChild(k0);
  }

  // ---- The search tree ----

  var MAX_TREE_NODES = 3000;

  /// The decisions and flips of steps 1..k as a tree, conflicts and the end as leaves.
  function searchTree(k) {
    var root = { kind: "root", step: 0, children: [] };
    var path = [root];
    var count = 0;
    for (var i = 0; i < k; i++) {
      var s = steps[i];
      var node = null;
      if (s.kind === "decide" || s.kind === "flip") {
        node = { kind: s.kind, lit: s.literal, step: i + 1, level: s.level, children: [] };
        var parent = path[Math.min(s.level - 1, path.length - 1)] || root;
        parent.children.push(node);
        path.length = Math.min(path.length, s.level);
        path[s.level] = node;
        path.length = s.level + 1;
      } else if (s.kind === "conflict" || s.kind === "sat" || s.kind === "unsat") {
        node = { kind: s.kind, step: i + 1, clause: s.clause, children: [] };
        path[path.length - 1].children.push(node);
      } else if (s.kind === "backtrack" || s.kind === "backjump" || s.kind === "restart") {
        var last = path[path.length - 1].children;
        var leaf = last.length ? last[last.length - 1] : null;
        if (leaf && leaf.kind === "conflict") leaf.back = s.level;
        path.length = Math.min(path.length, s.level + 1);
      } else if (s.kind === "propagate") {
        path[path.length - 1].forced = (path[path.length - 1].forced || 0) + 1;
      }
      if (node) count++;
    }
    return { root: root, current: path[path.length - 1], count: count };
  }

  function drawTree(k) {
    var box = $("tree");
    while (box.firstChild) box.removeChild(box.firstChild);
    var t = searchTree(k);
    box.setAttribute("data-nodes", String(t.count));
    if (t.count > MAX_TREE_NODES) {
      box.appendChild(el("p", {}, "The tree has " + t.count + " nodes, too many to draw; step back to see it."));
      return;
    }
    function label(node) {
      switch (node.kind) {
        case "root":
          return "start";
        case "decide":
          return litName(node.lit) + " (level " + node.level + ")";
        case "flip":
          return litName(node.lit) + " (flip, level " + node.level + ")";
        case "conflict":
          return "\u2717 conflict: clause " + node.clause + (node.back !== undefined ? ", back to level " + node.back : "");
        case "sat":
          return "\u2713 solution";
        case "unsat":
          return "\u2717 no solution";
      }
      return node.kind;
    }
    function build(node) {
      var li = el("li", { "class": "t-" + node.kind, "data-step": node.step });
      var span = el("span", { "class": "tnode", "data-step": node.step }, label(node));
      if (node.lit !== undefined) li.setAttribute("data-lit", String(node.lit));
      if (node.forced) span.appendChild(el("span", { "class": "forced" }, " +" + node.forced + " forced"));
      if (node === t.current) li.setAttribute("data-current", "true");
      if (node.step === k && k > 0) li.setAttribute("data-at", "true");
      li.appendChild(span);
      if (node.children.length) {
        var ul = el("ul");
        node.children.forEach(function (c) { ul.appendChild(build(c)); });
        li.appendChild(ul);
      }
      return li;
    }
    var ul = el("ul");
    ul.appendChild(build(t.root));
    box.appendChild(ul);
  }

  // ---- Variables ----

  var varItems = null;

  function drawVariables(trail) {
    var list = $("variables");
    if (!list) return;
    if (!varItems) {
      varItems = [];
      for (var v = 1; v <= data.variables; v++) {
        var li = el("li", { id: "var-" + v, "data-var": v, "data-value": "unassigned" }, v + " " + litName(v));
        list.appendChild(li);
        varItems.push(li);
      }
    }
    var value = {};
    trail.forEach(function (e) { value[Math.abs(e.lit)] = e.lit > 0 ? "true" : "false"; });
    varItems.forEach(function (li, i) {
      li.setAttribute("data-value", value[i + 1] || "unassigned");
    });
  }

  // ---- Showing a step ----

  function show(k) {
    if (isNaN(k)) k = 0;
    var total = steps.length;
    k = Math.max(0, Math.min(total, k));
    current = k;
    var step = k > 0 ? steps[k - 1] : null;
    var conflictCells = {};
    if (step && step.kind === "conflict") {
      clauseLits(step.clause).forEach(function (l) {
        var cell = data.cells && data.cells[Math.abs(l) - 1];
        if (cell) conflictCells[cell[0] + "-" + cell[1]] = true;
      });
    }
    if (n) {
      var board = step && step.board ? step.board : emptyBoard();
      var changed = {};
      (step && step.changed ? step.changed : []).forEach(function (rc) { changed[rc[0] + "-" + rc[1]] = true; });
      var pattern = {};
      if (step && step.learned) {
        step.learned.forEach(function (l) {
          var cell = data.cells[Math.abs(l) - 1];
          if (cell) pattern[cell[0] + "-" + cell[1]] = l < 0 ? "queen" : "empty";
        });
      }
      for (var r = 1; r <= n; r++) {
        for (var c = 1; c <= n; c++) {
          var key = r + "-" + c;
          var st = stateName(board[r - 1].charAt(c - 1));
          var rect = $("cell-" + key);
          rect.setAttribute("data-state", st);
          rect.setAttribute("data-changed", changed[key] ? "true" : "false");
          rect.setAttribute("data-pattern", pattern[key] || "none");
          rect.setAttribute("data-conflict", conflictCells[key] ? "true" : "false");
          var mark = $("mark-" + key);
          mark.setAttribute("data-state", st);
          mark.textContent = st === "queen" ? "Q" : st === "excluded" ? "\u00d7" : "";
        }
      }
    }
    main.setAttribute("data-step", String(k));
    main.setAttribute("data-steps", String(total));
    main.setAttribute("data-branch", branch);
    main.setAttribute("data-kind", step ? step.kind : "start");
    main.setAttribute("data-literal", step && step.literal ? String(step.literal) : "");
    main.setAttribute("data-level", step ? String(step.level) : "0");
    $("counter").textContent = "step " + k + " of " + total;
    $("step-kind").textContent = step ? step.kind + " (level " + step.level + ")" : "start";
    $("step-kind").setAttribute("data-kind", step ? step.kind : "start");
    $("step-text").textContent = step
      ? stepText(step)
      : "The empty board: no variable has a value yet. Press \u2192 to start.";
    var reason = $("reason");
    if (highlighted) {
      highlighted.setAttribute("data-highlight", "false");
      highlighted = null;
    }
    var learned = document.querySelectorAll("#clauses li.learned");
    for (var i = 0; i < learned.length; i++) {
      var at = parseInt(learned[i].getAttribute("data-learned-at"), 10);
      learned[i].hidden = branch !== "recorded" || at > k;
    }
    if (step && step.clause !== null && step.clause !== undefined) {
      var li = $("clause-" + step.clause);
      if (li && !li.hidden) {
        li.setAttribute("data-highlight", "true");
        highlighted = li;
        // Scroll the clause list only, never the page.
        var list = $("right");
        var top = li.offsetTop; // #right is the offset parent (position: relative)
        if (top < list.scrollTop || top + li.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = Math.max(0, top - list.clientHeight / 3);
        }
      }
      reason.setAttribute("data-clause", String(step.clause));
      reason.textContent = "clause " + step.clause + ": " + clauseText(step.clause);
    } else {
      reason.setAttribute("data-clause", "");
      reason.textContent = "";
    }
    $("first").disabled = k === 0;
    $("prev").disabled = k === 0;
    $("next").disabled = k === total;
    $("last").disabled = k === total;
    drawDetails(step);
    drawGraph(k);
    drawTree(k);
    drawVariables(trailAt(k));
    var hash = "#step=" + k;
    if (branch === "recorded" && location.hash !== hash) {
      try {
        history.replaceState(null, "", hash);
      } catch (e) {
        location.hash = hash;
      }
    }
  }

  // ---- Under the step: a learn step's resolutions, the watched literals it moved ----

  function drawDetails(step) {
    var ul = $("details");
    ul.textContent = "";
    if (!step) return;
    (step.resolution || []).forEach(function (r, i) {
      var text = r.variable === null || r.variable === undefined
        ? "resolution: the conflict clause " + r.clause + ": " + clauseWords(r.resolvent)
        : "on " + litName(r.variable) + " with clause " + r.clause + ": " + clauseWords(r.resolvent);
      ul.appendChild(el("li", { "class": "resolution", "data-index": String(i) }, text));
    });
    var w = step.watches;
    if (w) {
      (w.moved || []).forEach(function (m) {
        ul.appendChild(el("li", { "class": "watch", "data-clause": String(m.clause) },
          "clause " + m.clause + " watches " + litName(m.to) + " instead of " + litName(m.from)));
      });
      if ((w.unit || []).length) {
        ul.appendChild(el("li", { "class": "unit" }, "made unit: clause " + w.unit.join(", clause ")));
      }
      if ((w.watched || []).length) {
        ul.appendChild(el("li", { "class": "watch" }, "the new clause watches " + w.watched.map(litName).join(" and ")));
      }
    }
  }

  // ---- Automatic mode: one step after another until the end, a conflict breakpoint or a click ----

  var playing = null;

  function stopPlaying() {
    if (playing !== null) {
      clearInterval(playing);
      playing = null;
    }
    $("play").textContent = "play";
    $("play").setAttribute("data-playing", "false");
  }

  function play() {
    if (playing !== null) {
      stopPlaying();
      return;
    }
    if (current >= steps.length) show(0);
    $("play").textContent = "pause";
    $("play").setAttribute("data-playing", "true");
    playing = setInterval(function () {
      if (current >= steps.length) {
        stopPlaying();
        return;
      }
      show(current + 1);
    }, 400);
  }

  // ---- What-if: another decision, and the engine goes on from there ----

  function say(id, text, attrs) {
    var e = $(id);
    e.textContent = text;
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
  }

  function options() {
    return data.options || {};
  }

  /// Takes `lit` as the next decision after step `current`: the decisions made so far are kept
  /// (the engine is told each of them), the new one replaces the heuristic's choice.
  function whatIf(lit) {
    if (!engine) {
      say("whatif-note", "This page has no engine: it can only show the recorded steps.", { "data-state": "no-engine" });
      return;
    }
    var decisions = {};
    var m = 0;
    for (var i = 0; i < current; i++) {
      if (steps[i].kind === "decide") {
        m++;
        decisions[m] = steps[i].literal;
      }
    }
    var assigned = trailAt(current).some(function (e) { return Math.abs(e.lit) === Math.abs(lit); });
    if (assigned) {
      say("whatif-note", litName(Math.abs(lit)) + " already has a value at this step: pick an open cell or variable.", { "data-state": "refused" });
      return;
    }
    decisions[m + 1] = lit;
    var result;
    try {
      result = engine.run(data, options(), { decisions: decisions });
    } catch (err) {
      say("whatif-note", "What-if refused: " + (err && err.message ? err.message : String(err)), { "data-state": "refused" });
      return;
    }
    var at = 0;
    var count = 0;
    for (var j = 0; j < result.steps.length; j++) {
      if (result.steps[j].kind === "decide" && ++count === m + 1) {
        at = j + 1;
        break;
      }
    }
    var from = branch === "recorded" ? current : branchFrom;
    steps = result.steps;
    branch = "what-if";
    branchFrom = from;
    indexLearned();
    main.setAttribute("data-decisions", JSON.stringify(decisions));
    $("return").hidden = false;
    var taken = at && steps[at - 1].literal === lit;
    say("whatif-note",
      taken
        ? "What-if: decision " + (m + 1) + " is " + litName(lit) + " instead of the heuristic's choice; the engine goes on from there (" +
          steps.length + " steps, " + (result.stopped ? "stopped at the step limit" : result.satisfiable ? "a solution" : "no solution") + ")."
        : "What-if: " + litName(lit) + " was forced before decision " + (m + 1) + " could take it; the engine went on as it would.",
      { "data-state": taken ? "taken" : "forced" });
    show(at || current);
  }

  function backToRecorded() {
    steps = recorded;
    branch = "recorded";
    indexLearned();
    main.removeAttribute("data-decisions");
    $("return").hidden = true;
    say("whatif-note", "", { "data-state": "" });
    show(branchFrom);
  }

  // ---- Breakpoints ----

  function runUntil(test, what) {
    for (var j = current + 1; j <= steps.length; j++) {
      if (test(steps[j - 1])) {
        say("break-status", "stopped at step " + j + ": " + what, { "data-stopped": "break", "data-at": String(j) });
        show(j);
        return;
      }
    }
    say("break-status", "ran to the end: " + what + " did not happen", { "data-stopped": "end", "data-at": String(steps.length) });
    show(steps.length);
  }

  function runUntilConflict() {
    runUntil(function (s) { return s.kind === "conflict"; }, "the next conflict");
  }

  function runUntilLiteral(lit) {
    $("break-literal").value = String(lit);
    runUntil(function (s) {
      return s.literal === lit && (s.kind === "decide" || s.kind === "flip" || s.kind === "propagate");
    }, litName(lit) + " assigned");
  }

  // ---- Clicks on the board and the variables ----

  function clickMode() {
    var checked = document.querySelector("input[name=click-mode]:checked");
    return checked ? checked.value : "true";
  }

  function pick(v, shift) {
    var mode = clickMode();
    if (mode === "break") {
      runUntilLiteral(shift ? -v : v);
      return;
    }
    var positive = (mode === "true") !== !!shift;
    whatIf(positive ? v : -v);
  }

  if (n) {
    $("board").addEventListener("click", function (e) {
      var t = e.target;
      var m = t && t.id ? /^cell-(\d+)-(\d+)$/.exec(t.id) : null;
      if (!m) return;
      var v = cellVar[m[1] + "-" + m[2]];
      if (!v) {
        say("whatif-note", "No single variable stands for this cell: pick a variable in the list.", { "data-state": "refused" });
        return;
      }
      pick(v, e.shiftKey);
    });
  }
  if ($("variables")) {
    $("variables").addEventListener("click", function (e) {
      var t = e.target;
      var v = t && t.getAttribute ? parseInt(t.getAttribute("data-var"), 10) : NaN;
      if (v) pick(v, e.shiftKey);
    });
  }
  $("tree").addEventListener("click", function (e) {
    var s = e.target && e.target.getAttribute ? e.target.getAttribute("data-step") : null;
    if (s !== null) show(parseInt(s, 10));
  });

  function fromHash() {
    var m = /step=(\d+)/.exec(location.hash);
    return m ? parseInt(m[1], 10) : 0;
  }

  function onKey(e) {
    if (e.target && e.target.tagName === "INPUT" && e.target.type !== "radio") return;
    if (e.key === "p") {
      play();
      if (e.preventDefault) e.preventDefault();
      return;
    }
    if (e.key === "ArrowRight" || e.key === "ArrowLeft" || e.key === "Home" || e.key === "End") stopPlaying();
    if (e.key === "ArrowRight") show(current + 1);
    else if (e.key === "ArrowLeft") show(current - 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(steps.length);
    else return;
    if (e.preventDefault) e.preventDefault();
  }

  $("play").addEventListener("click", play);
  ["first", "prev", "next", "last", "run-conflict", "run-literal", "return"].forEach(function (id) {
    $(id).addEventListener("click", stopPlaying);
  });
  $("first").addEventListener("click", function () { show(0); });
  $("prev").addEventListener("click", function () { show(current - 1); });
  $("next").addEventListener("click", function () { show(current + 1); });
  $("last").addEventListener("click", function () { show(steps.length); });
  $("return").addEventListener("click", backToRecorded);
  $("run-conflict").addEventListener("click", runUntilConflict);
  $("run-literal").addEventListener("click", function () {
    var l = parseInt($("break-literal").value, 10);
    if (l && Math.abs(l) <= data.variables) runUntilLiteral(l);
    else say("break-status", "a literal is a variable's number, negative for false (1 to " + data.variables + ")", { "data-stopped": "refused" });
  });
  if (!engine) {
    say("whatif-note", "This page has no engine: clicks set breakpoints only.", { "data-state": "no-engine" });
  }
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", function () {
    var k = fromHash();
    if (k !== current) show(k);
  });
  indexLearned();
  // "#step=K&keys=ArrowRight,ArrowLeft" presses those keys after opening step K: a way to
  // check the key bindings from a script that can only load the page.
  var keys = /keys=([A-Za-z,]+)/.exec(location.hash);
  show(fromHash());
  if (keys) {
    keys[1].split(",").forEach(function (key) {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: key }));
    });
  }
})();
