(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("trace-data").textContent);
  var n = data.n;
  var steps = data.steps;
  var total = steps.length;
  var formulaClauses = data.clauses.length;
  var learnedText = {};
  var learnedAt = {};
  steps.forEach(function (s) {
    if (s.kind === "learn") {
      learnedAt[s.clause] = s.step;
      learnedText[s.clause] = s.learned;
    }
  });
  var main = document.getElementById("trace");
  var highlighted = null;
  var current = 0;

  function emptyBoard() {
    var rows = [];
    var row = new Array(n + 1).join(".");
    for (var r = 0; r < n; r++) rows.push(row);
    return rows;
  }

  function stateName(ch) {
    return ch === "Q" ? "queen" : ch === "x" ? "excluded" : "unknown";
  }

  function clauseText(i) {
    if (i < formulaClauses) {
      var c = data.clauses[i];
      return c.text + "  (" + c.meaning + ")";
    }
    var li = document.getElementById("clause-" + i);
    return li ? li.getAttribute("data-text") : "";
  }

  function show(k) {
    if (isNaN(k)) k = 0;
    k = Math.max(0, Math.min(total, k));
    current = k;
    var step = k > 0 ? steps[k - 1] : null;
    var board = step ? step.board : emptyBoard();
    var changed = {};
    (step ? step.changed : []).forEach(function (rc) { changed[rc[0] + "-" + rc[1]] = true; });
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
        var rect = document.getElementById("cell-" + key);
        rect.setAttribute("data-state", st);
        rect.setAttribute("data-changed", changed[key] ? "true" : "false");
        rect.setAttribute("data-pattern", pattern[key] || "none");
        var mark = document.getElementById("mark-" + key);
        mark.setAttribute("data-state", st);
        mark.textContent = st === "queen" ? "Q" : st === "excluded" ? "\u00d7" : "";
      }
    }
    main.setAttribute("data-step", String(k));
    document.getElementById("counter").textContent = "step " + k + " of " + total;
    document.getElementById("step-kind").textContent = step
      ? step.kind + " (level " + step.level + ")"
      : "start";
    document.getElementById("step-kind").setAttribute("data-kind", step ? step.kind : "start");
    document.getElementById("step-text").textContent = step
      ? step.text
      : "The empty board: no variable has a value yet. Press \u2192 to start.";
    var reason = document.getElementById("reason");
    if (highlighted) {
      highlighted.setAttribute("data-highlight", "false");
      highlighted = null;
    }
    var learned = document.querySelectorAll("#clauses li.learned");
    for (var i = 0; i < learned.length; i++) {
      var at = parseInt(learned[i].getAttribute("data-learned-at"), 10);
      learned[i].hidden = at > k;
    }
    if (step && step.clause !== null && step.clause !== undefined) {
      var li = document.getElementById("clause-" + step.clause);
      if (li) {
        li.setAttribute("data-highlight", "true");
        highlighted = li;
        // Scroll the clause list only, never the page.
        var list = document.getElementById("right");
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
    document.getElementById("first").disabled = k === 0;
    document.getElementById("prev").disabled = k === 0;
    document.getElementById("next").disabled = k === total;
    document.getElementById("last").disabled = k === total;
    var hash = "#step=" + k;
    if (location.hash !== hash) {
      try {
        history.replaceState(null, "", hash);
      } catch (e) {
        location.hash = hash;
      }
    }
  }

  function fromHash() {
    var m = /step=(\d+)/.exec(location.hash);
    return m ? parseInt(m[1], 10) : 0;
  }

  function onKey(e) {
    if (e.key === "ArrowRight") show(current + 1);
    else if (e.key === "ArrowLeft") show(current - 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(total);
    else return;
    if (e.preventDefault) e.preventDefault();
  }

  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { show(current + 1); });
  document.getElementById("last").addEventListener("click", function () { show(total); });
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", function () {
    var k = fromHash();
    if (k !== current) show(k);
  });
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
