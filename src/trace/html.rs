//! The trace as one self-contained HTML page: the board as inline SVG, the clause list beside
//! it, buttons and arrow keys to step forward and back, `#step=K` in the address to open a
//! step; the implication graph of the current conflict and the search tree so far, drawn by
//! the page's script from the steps; what-if decisions (a click on a cell or a variable) that
//! the page's own copy of the solver goes on from; breakpoints (run until the next conflict,
//! or until a literal is assigned). No network, no external script, style sheet or font.
//!
//! The page exposes what it shows for scripted checks: `main#trace[data-step]` is the step
//! shown (0 the start, 1 the first step), `[data-steps]` how many steps the branch shown has,
//! `[data-branch]` `recorded` or `what-if`, `[data-kind]` and `[data-literal]` the step's kind
//! and literal; `rect#cell-R-C[data-state]` is `queen`, `excluded` or `unknown`
//! (`data-changed="true"` when the step changed it, `data-pattern` the cells of a learned
//! clause, `data-conflict="true"` the cells of the clause a conflict found false),
//! `li#clause-I[data-highlight="true"]` the clause of the step and `#reason[data-clause]` its
//! text; `svg#graph[data-conflict]` the conflict's clause and `[data-uip]` its first UIP (a
//! DIMACS literal; empty without a conflict), each node `g.node[data-lit][data-uip]`;
//! `#tree li[data-current="true"]` the current decision of the search tree (`data-lit`),
//! `li.t-conflict` its conflict leaves; `#break-status[data-stopped]` where the last run
//! stopped (`break` or `end`); `li#var-V[data-value]` each variable's value. Any script error
//! is written into `pre#errors`.

use super::{Trace, TraceError};
use crate::board::picture::escape;
use std::io::{self, Write};

/// The largest board the HTML page draws.
pub const MAX_HTML_N: usize = 16;

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");
/// The solver in JavaScript: the page runs it for a what-if decision.
const ENGINE: &str = include_str!("engine.js");

impl Trace {
    /// Refuses a board larger than [`MAX_HTML_N`] before anything is written.
    pub fn check_html(&self) -> Result<(), TraceError> {
        if self.n > MAX_HTML_N {
            return Err(TraceError::BoardTooLarge {
                n: self.n,
                max: MAX_HTML_N,
            });
        }
        Ok(())
    }

    /// Writes the page ([`Trace::check_html`] first).
    pub fn write_html(&self, out: &mut dyn Write) -> io::Result<()> {
        if let Err(e) = self.check_html() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, e));
        }
        let n = self.n;
        let subject = match &self.file {
            Some(_) if n > 0 => format!("{} (board n = {n})", self.model),
            Some(_) => self.model.clone(),
            None => format!("n = {n}, {}", self.model),
        };
        let title = format!("queens-sat trace: {subject}, {}", self.solver);
        writeln!(out, "<!DOCTYPE html>")?;
        writeln!(out, "<html lang=\"en\"><head><meta charset=\"utf-8\">")?;
        writeln!(out, "<title>{}</title>", escape(&title))?;
        writeln!(out, "<style>\n{STYLE}</style>")?;
        // The error handler comes first, so that it sees every later script error.
        writeln!(
            out,
            "<script>window.onerror = function (msg, src, line, col) {{ var e = document.getElementById(\"errors\"); if (e) e.textContent += msg + \" (line \" + line + \":\" + col + \")\\n\"; }};</script>"
        )?;
        writeln!(out, "</head><body>")?;
        writeln!(out, "<pre id=\"errors\"></pre>")?;
        writeln!(out, "<h1>{}</h1>", escape(&title))?;
        let result = match &self.solution {
            Some(cols) => format!(
                "a solution: {}",
                cols.iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            None if self.satisfiable => "a model (see the variables)".to_string(),
            None => "no solution exists (proved by the search)".to_string(),
        };
        writeln!(
            out,
            "<p id=\"summary\" data-satisfiable=\"{}\">{} variables, {} clauses, {} steps; result: {}. Decisions: {}.</p>",
            self.satisfiable,
            self.variables,
            self.clauses.len(),
            self.steps.len(),
            escape(&result),
            escape(self.heuristic)
        )?;
        writeln!(
            out,
            "<main id=\"trace\" data-n=\"{n}\" data-steps=\"{}\" data-step=\"0\" data-branch=\"recorded\"><div id=\"layout\"><div id=\"left\">",
            self.steps.len()
        )?;
        writeln!(out, "<div id=\"controls\"><button id=\"first\" title=\"Home\">&#x25C0;&#x25C0;</button> <button id=\"prev\" title=\"Left arrow\">&#x25C0; back</button> <span id=\"counter\"></span> <button id=\"next\" title=\"Right arrow\">forward &#x25B6;</button> <button id=\"last\" title=\"End\">&#x25B6;&#x25B6;</button> <button id=\"play\" title=\"P\" data-playing=\"false\">play</button></div>")?;
        if n > 0 {
            self.write_board(out)?;
        }
        writeln!(out, "<div id=\"whatif\"><span id=\"whatif-note\" data-state=\"\"></span> <button id=\"return\" hidden>back to the recorded trace</button></div>")?;
        let (what, yes, no) = if n > 0 {
            ("a cell (or a variable)", "a queen there", "no queen there")
        } else {
            ("a variable", "true", "false")
        };
        writeln!(out, "<div id=\"tools\"><div>A click on {what}: <label><input type=\"radio\" name=\"click-mode\" id=\"mode-true\" value=\"true\" checked> what-if, {yes}</label> <label><input type=\"radio\" name=\"click-mode\" id=\"mode-false\" value=\"false\"> what-if, {no}</label> <label><input type=\"radio\" name=\"click-mode\" id=\"mode-break\" value=\"break\"> run until it is assigned</label>; shift-click for the other value.</div>")?;
        writeln!(out, "<div><button id=\"run-conflict\">run until the next conflict</button> <label>literal <input id=\"break-literal\" type=\"number\" size=\"6\"></label> <button id=\"run-literal\">run until it is assigned</button> <span id=\"break-status\" data-stopped=\"\" data-at=\"\"></span></div></div>")?;
        writeln!(out, "<div id=\"step-kind\"></div>")?;
        writeln!(out, "<p id=\"step-text\"></p>")?;
        writeln!(out, "<div id=\"reason\" data-clause=\"\"></div>")?;
        writeln!(out, "<ul id=\"details\"></ul>")?;
        let board_help = if n > 0 {
            " Q queen, &#xD7; no queen possible; an orange border marks the cells the step changed, a dashed one the pattern of a learned clause, a red fill the cells of a clause found false."
        } else {
            ""
        };
        writeln!(out, "<p id=\"help\">Keys: &#x2190; &#x2192; one step, Home and End the start and the end, P plays the steps one after another (a click or a key stops it).{board_help} The address ends in #step=K.</p>")?;
        writeln!(out, "</div><div id=\"middle\"><h2>Implication graph</h2><p id=\"graph-note\"></p><div id=\"graph-box\"><svg id=\"graph\" xmlns=\"http://www.w3.org/2000/svg\" data-conflict=\"\" data-uip=\"\" role=\"img\" aria-label=\"the implication graph\"></svg></div>")?;
        writeln!(
            out,
            "<h2>Search tree</h2><div id=\"tree\" data-nodes=\"0\"></div>"
        )?;
        writeln!(out, "<h2>Variables</h2><ol id=\"variables\"></ol></div>")?;
        writeln!(
            out,
            "<div id=\"right\"><h2>Clauses</h2><ol id=\"clauses\" start=\"1\">"
        )?;
        for (i, c) in (1..).zip(&self.clauses) {
            writeln!(
                out,
                "<li id=\"clause-{i}\" data-clause=\"{i}\" data-highlight=\"false\">{} <span class=\"meaning\">{}</span></li>",
                escape(&c.text),
                escape(&c.meaning)
            )?;
        }
        for s in self.steps.iter().filter(|s| s.learned.is_some()) {
            let i = s.clause.unwrap_or_default();
            let text = format!("learned {}", s.text);
            writeln!(
                out,
                "<li id=\"clause-{i}\" class=\"learned\" data-clause=\"{i}\" data-learned-at=\"{}\" data-highlight=\"false\" data-text=\"{}\" hidden>{}</li>",
                s.step,
                escape(&text),
                escape(&text)
            )?;
        }
        writeln!(out, "</ol></div></div></main>")?;
        // The data, with `<` escaped so that no text in it can close the script element.
        let json = serde_json::to_string(self)
            .map_err(io::Error::other)?
            .replace('<', "\\u003c");
        writeln!(
            out,
            "<script type=\"application/json\" id=\"trace-data\">{json}</script>"
        )?;
        writeln!(out, "<script>\n{ENGINE}</script>")?;
        writeln!(out, "<script>\n{SCRIPT}</script>")?;
        writeln!(out, "</body></html>")
    }

    /// The board: a checkered square per cell, a state rectangle and a mark on top.
    fn write_board(&self, out: &mut dyn Write) -> io::Result<()> {
        let n = self.n;
        let size = 50;
        let side = n * size;
        writeln!(
            out,
            "<svg id=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" role=\"img\" aria-label=\"the board\">"
        )?;
        for r in 0..n {
            for c in 0..n {
                let (x, y) = (c * size, r * size);
                let shade = if (r + c) % 2 == 0 { "light" } else { "dark" };
                writeln!(
                    out,
                    "<rect class=\"cell-{shade}\" x=\"{x}\" y=\"{y}\" width=\"{size}\" height=\"{size}\"/><rect id=\"cell-{}-{}\" class=\"state\" data-state=\"unknown\" data-changed=\"false\" data-pattern=\"none\" data-conflict=\"false\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>q({},{})</title></rect><text id=\"mark-{}-{}\" class=\"mark\" data-state=\"unknown\" x=\"{}\" y=\"{}\" font-size=\"{}\"></text>",
                    r + 1,
                    c + 1,
                    x + 2,
                    y + 2,
                    size - 4,
                    size - 4,
                    r + 1,
                    c + 1,
                    r + 1,
                    c + 1,
                    x + size / 2,
                    y + size / 2,
                    size * 3 / 5
                )?;
            }
        }
        writeln!(out, "</svg>")
    }
}
