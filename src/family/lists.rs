//! The syntax the literature's parameter files share: statements `name = value` (Python's
//! `print` of the Excluded Diagonals generator) or `letting name = value` / `letting name be
//! value` (Essence'), whose values are integers or bracketed lists of them, spread over lines
//! at will. Errors name the line of the offending token.

use super::{ParseError, MAX_N};
use crate::input::shorten as quote;

/// How deep lists may nest: a list of pairs.
const MAX_DEPTH: usize = 2;

/// The two dialects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialect {
    /// `name = value`; `#` starts a comment.
    Python,
    /// `letting name = value` or `letting name be value`; `$` starts a comment; a line
    /// starting with `language` names the language and is skipped.
    Essence,
}

/// An integer or a list, with the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Value {
    /// An integer.
    Int { value: i64, line: usize },
    /// A bracketed list.
    List { items: Vec<Value>, line: usize },
}

impl Value {
    /// The line the value starts on.
    pub(super) fn line(&self) -> usize {
        match self {
            Value::Int { line, .. } | Value::List { line, .. } => *line,
        }
    }

    /// The value as Python prints it, shortened for messages.
    pub(super) fn shown(&self) -> String {
        fn write(v: &Value, s: &mut String) {
            if s.len() > 80 {
                return;
            }
            match v {
                Value::Int { value, .. } => s.push_str(&value.to_string()),
                Value::List { items, .. } => {
                    s.push('[');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            s.push_str(", ");
                        }
                        write(item, s);
                    }
                    s.push(']');
                }
            }
        }
        let mut s = String::new();
        write(self, &mut s);
        quote(&s)
    }

    /// The two integers of a pair `[a, b]`, or a message naming what `what` should have been.
    pub(super) fn pair(&self, what: &str) -> Result<(i64, i64), ParseError> {
        if let Value::List { items, .. } = self {
            if let [Value::Int { value: a, .. }, Value::Int { value: b, .. }] = items.as_slice() {
                return Ok((*a, *b));
            }
        }
        err(
            self.line(),
            format!("expected {what}, found '{}'", self.shown()),
        )
    }
}

/// One statement: a name, the line it is on, its value.
#[derive(Clone, Debug)]
pub(super) struct Statement<'a> {
    pub name: &'a str,
    pub line: usize,
    pub value: Value,
}

pub(super) fn err<T>(line: usize, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        line,
        message: message.into(),
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token<'a> {
    Word(&'a str),
    Int(i64),
    Symbol(char),
    End,
}

impl Token<'_> {
    fn shown(&self) -> String {
        match self {
            Token::Word(w) => format!("'{}'", quote(w)),
            Token::Int(i) => format!("'{i}'"),
            Token::Symbol(c) => format!("'{c}'"),
            Token::End => "the end of the file".to_string(),
        }
    }
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    /// The last line of the file, for errors at its end.
    last_line: usize,
    dialect: Dialect,
    /// The token read ahead, with its line.
    peeked: Option<(Token<'a>, usize)>,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str, dialect: Dialect) -> Self {
        Lexer {
            text,
            pos: 0,
            line: 1,
            last_line: text.lines().count().max(1),
            dialect,
            peeked: None,
        }
    }

    fn comment_char(&self) -> char {
        match self.dialect {
            Dialect::Python => '#',
            Dialect::Essence => '$',
        }
    }

    /// `true` when `pos` starts a line (only blanks before it on its line).
    fn at_line_start(&self) -> bool {
        self.text[..self.pos]
            .rsplit('\n')
            .next()
            .is_none_or(|before| before.trim().is_empty())
    }

    /// `true` at the word `language` starting a line of an Essence' file.
    fn at_language_line(&self) -> bool {
        self.dialect == Dialect::Essence
            && self.text[self.pos..].starts_with("language")
            && self.at_line_start()
    }

    /// Skips the rest of the current line (not its newline).
    fn skip_line(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.find('\n').unwrap_or(rest.len());
    }

    fn peek(&mut self) -> Result<(Token<'a>, usize), ParseError> {
        if let Some(t) = self.peeked {
            return Ok(t);
        }
        let t = self.read()?;
        self.peeked = Some(t);
        Ok(t)
    }

    fn next(&mut self) -> Result<(Token<'a>, usize), ParseError> {
        match self.peeked.take() {
            Some(t) => Ok(t),
            None => self.read(),
        }
    }

    fn read(&mut self) -> Result<(Token<'a>, usize), ParseError> {
        loop {
            let Some(c) = self.text[self.pos..].chars().next() else {
                return Ok((Token::End, self.last_line));
            };
            if c == '\n' {
                self.line += 1;
                self.pos += 1;
            } else if c.is_whitespace() {
                self.pos += c.len_utf8();
            } else if c == self.comment_char() || self.at_language_line() {
                self.skip_line();
            } else {
                break;
            }
        }
        let line = self.line;
        let rest = &self.text[self.pos..];
        let c = rest.chars().next().expect("not at the end");
        let negative = c == '-' && rest[1..].starts_with(|d: char| d.is_ascii_digit());
        if c.is_ascii_digit() || negative {
            let len = usize::from(negative)
                + rest[usize::from(negative)..]
                    .find(|d: char| !d.is_ascii_digit())
                    .unwrap_or(rest.len() - usize::from(negative));
            let digits = &rest[..len];
            self.pos += len;
            return match digits.parse::<i64>() {
                Ok(v) => Ok((Token::Int(v), line)),
                Err(_) => err(line, format!("number '{}' is too large", quote(digits))),
            };
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let len = rest
                .find(|d: char| !(d.is_ascii_alphanumeric() || d == '_' || d == '\''))
                .unwrap_or(rest.len());
            self.pos += len;
            return Ok((Token::Word(&rest[..len]), line));
        }
        self.pos += c.len_utf8();
        Ok((Token::Symbol(c), line))
    }

    /// A value: an integer or a list, nested at most [`MAX_DEPTH`] deep; `each` is given every
    /// item of a list as soon as it is read (with its index), and its error stops the reading.
    fn value(&mut self, each: &mut ItemFn<'_>) -> Result<Value, ParseError> {
        let (t, line) = self.next()?;
        match t {
            Token::Int(value) => Ok(Value::Int { value, line }),
            Token::Symbol('[') => self.list(line, 1, each),
            other => err(
                line,
                format!("expected a number or a list, found {}", other.shown()),
            ),
        }
    }

    /// The rest of a list whose `[` is on `open`, at nesting `depth`; `each` is given each
    /// item once read (the items of nested lists go with theirs).
    fn list(
        &mut self,
        open: usize,
        depth: usize,
        each: &mut ItemFn<'_>,
    ) -> Result<Value, ParseError> {
        let mut items = Vec::new();
        loop {
            let (t, line) = self.next()?;
            let item = match t {
                Token::Symbol(']') if items.is_empty() => break,
                Token::Int(value) => Value::Int { value, line },
                Token::Symbol('[') if depth < MAX_DEPTH => {
                    self.list(line, depth + 1, &mut |_, _| Ok(()))?
                }
                Token::Symbol('[') => return err(line, "lists nest deeper than a list of pairs"),
                Token::End => return self.unclosed(open),
                other => {
                    return err(
                        line,
                        format!("expected a number or a list, found {}", other.shown()),
                    )
                }
            };
            each(items.len(), &item)?;
            items.push(item);
            let (t, line) = self.next()?;
            match t {
                Token::Symbol(',') => continue,
                Token::Symbol(']') => break,
                Token::End => return self.unclosed(open),
                other => {
                    return err(
                        line,
                        format!("expected ',' or ']' in the list, found {}", other.shown()),
                    )
                }
            }
        }
        Ok(Value::List { items, line: open })
    }

    fn unclosed<T>(&self, open: usize) -> Result<T, ParseError> {
        err(
            self.last_line,
            format!("the file ends inside the list opened on line {open} (truncated?)"),
        )
    }
}

/// A board size as the value of `n`: an integer in `1..=MAX_N`.
pub(super) fn board_size(value: &Value) -> Result<usize, ParseError> {
    match *value {
        Value::Int { value, .. } if (1..=MAX_N as i64).contains(&value) => Ok(value as usize),
        ref v => err(
            v.line(),
            format!("n must be an integer in 1..={MAX_N}, found '{}'", v.shown()),
        ),
    }
}

/// The board size stated before, if `n` was, and validly.
pub(super) fn stated_size(before: &[Statement<'_>]) -> Option<usize> {
    let n = before.iter().find(|s| s.name == "n")?;
    board_size(&n.value).ok()
}

/// What is given an item of a list as soon as it is read: its index in the list and the item.
type ItemFn<'c> = dyn FnMut(usize, &Value) -> Result<(), ParseError> + 'c;

/// Checks made while a file is read, so that a file is refused at its first impossible part
/// (a name it cannot have, a list longer than any valid one, an item listed twice) instead of
/// after it was all read: a file far larger than any valid one costs no more memory than a
/// valid one. Each method is given the statements read before; an error stops the reading.
pub(super) trait Checks {
    /// The names a file of this kind may state.
    fn names(&self) -> &'static [&'static str];

    /// What a file of this kind states, in words for messages (`an Excluded Diagonals
    /// parameter file has n, numdiags and diags`).
    fn has(&self) -> &'static str;

    /// A statement named `name` starts on `line` (its value is read next): refused when the
    /// file may not state that name ([`Checks::names`]) or stated it before.
    fn statement(
        &mut self,
        before: &[Statement<'_>],
        name: &str,
        line: usize,
    ) -> Result<(), ParseError> {
        if !self.names().contains(&name) {
            return err(
                line,
                format!("unknown name '{}' ({})", quote(name), self.has()),
            );
        }
        if let Some(prev) = before.iter().find(|s| s.name == name) {
            return err(
                line,
                format!("'{name}' given twice (also on line {})", prev.line),
            );
        }
        Ok(())
    }

    /// Item `index` of the list that is the value of the statement `name` (not `n`: a list
    /// there is refused before).
    fn item(
        &mut self,
        before: &[Statement<'_>],
        name: &str,
        index: usize,
        item: &Value,
    ) -> Result<(), ParseError>;
}

/// The statements of a file in `dialect`, in order.
#[cfg(test)]
pub(super) fn statements(text: &str, dialect: Dialect) -> Result<Vec<Statement<'_>>, ParseError> {
    struct Nothing;
    impl Checks for Nothing {
        fn names(&self) -> &'static [&'static str] {
            &[]
        }
        fn has(&self) -> &'static str {
            ""
        }
        fn statement(&mut self, _: &[Statement<'_>], _: &str, _: usize) -> Result<(), ParseError> {
            Ok(())
        }
        fn item(
            &mut self,
            _: &[Statement<'_>],
            _: &str,
            _: usize,
            _: &Value,
        ) -> Result<(), ParseError> {
            Ok(())
        }
    }
    statements_checked(text, dialect, &mut Nothing)
}

/// The statements of a file in `dialect`, in order, each statement and each item of a list
/// given to `checks` as soon as it is read.
pub(super) fn statements_checked<'t>(
    text: &'t str,
    dialect: Dialect,
    checks: &mut dyn Checks,
) -> Result<Vec<Statement<'t>>, ParseError> {
    let mut lex = Lexer::new(text, dialect);
    let mut out = Vec::new();
    loop {
        let (t, line) = lex.next()?;
        let name = match (dialect, t) {
            (_, Token::End) => break,
            (Dialect::Python, Token::Word(name)) => name,
            (Dialect::Essence, Token::Word("letting")) => match lex.next()? {
                (Token::Word(name), _) => name,
                (other, line) => {
                    return err(
                        line,
                        format!("expected a name after 'letting', found {}", other.shown()),
                    )
                }
            },
            (Dialect::Python, other) => {
                return err(
                    line,
                    format!("expected 'name = value', found {}", other.shown()),
                )
            }
            (Dialect::Essence, other) => {
                return err(
                    line,
                    format!(
                        "expected 'letting name = value' or 'letting name be value', found {}",
                        other.shown()
                    ),
                )
            }
        };
        match (dialect, lex.next()?) {
            (_, (Token::Symbol('='), _)) => {}
            (Dialect::Essence, (Token::Word("be"), _)) => {}
            (_, (other, line)) => {
                let expected = match dialect {
                    Dialect::Python => "'='",
                    Dialect::Essence => "'=' or 'be'",
                };
                return err(
                    line,
                    format!(
                        "expected {expected} after '{}', found {}",
                        quote(name),
                        other.shown()
                    ),
                );
            }
        }
        checks.statement(&out, name, line)?;
        let value = lex.value(&mut |index, item| {
            // `n` is the board size in every file: a list there is refused at its first item.
            if name == "n" {
                return err(
                    item.line(),
                    format!("n must be an integer in 1..={MAX_N}, found a list"),
                );
            }
            checks.item(&out, name, index, item)
        })?;
        // A statement ends its line's business: the next token starts a new statement.
        if let (Token::Symbol(c), l) = lex.peek()? {
            return err(
                l,
                format!("unexpected '{c}' after the value of '{}'", quote(name)),
            );
        }
        out.push(Statement { name, line, value });
    }
    Ok(out)
}

/// The last line of `text` (1 for an empty text), for errors about what is missing.
pub(super) fn last_line(text: &str) -> usize {
    text.lines().count().max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_spread_over_lines_keep_their_lines() {
        let text = "n =  10\nnumdiags = 2\ndiags =  [[4, 1],\n   [2, 0]]\n";
        let s = statements(text, Dialect::Python).unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!((s[2].name, s[2].line), ("diags", 3));
        let Value::List { items, .. } = &s[2].value else {
            panic!()
        };
        assert_eq!(items[1].line(), 4);
        assert_eq!(items[1].pair("a pair").unwrap(), (2, 0));
    }

    #[test]
    fn essence_comments_language_and_be() {
        let text = "language ESSENCE' 1.0\n$ a comment\nletting n be 8 $ the size\nletting init = [[0, -1]]\n";
        let s = statements(text, Dialect::Essence).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].value, Value::Int { value: 8, line: 3 });
        assert_eq!(s[1].value.shown(), "[[0, -1]]");
    }

    #[test]
    fn errors_name_the_line() {
        let e = |t: &str| statements(t, Dialect::Python).unwrap_err().to_string();
        assert_eq!(
            e("n = 3\ndiags = [[1, 1],\n[2, 0]\n"),
            "line 3: the file ends inside the list opened on line 2 (truncated?)"
        );
        assert_eq!(
            e("n = 3\ndiags = [[1 1]]\n"),
            "line 2: expected ',' or ']' in the list, found '1'"
        );
        assert_eq!(
            e("n = [[[1]]]\n"),
            "line 1: lists nest deeper than a list of pairs"
        );
        assert_eq!(
            e("n = 99999999999999999999\n"),
            "line 1: number '99999999999999999999' is too large"
        );
        assert_eq!(e("n 3\n"), "line 1: expected '=' after 'n', found '3'");
        assert_eq!(
            e("n = 3]\n"),
            "line 1: unexpected ']' after the value of 'n'"
        );
    }
}
