//! A JSON tree that keeps number literals as written, and CPython's
//! `json.dumps(value, sort_keys=True)` of it: what the hinted class hash of a Cairo 0 class
//! commits to.
//!
//! serde_json (without `arbitrary_precision`, which would change how every other reader of this
//! crate sees numbers) reads an integer outside the 64-bit range as a float; Cairo 0 programs
//! hold such integers (the `value` of `const` identifiers, up to p in magnitude), and Python
//! writes them back digit for digit. So this reader keeps each number's text.
//!
//! **Reading** follows RFC 8259 as Python's `json.loads` does: a repeated key keeps its last
//! value; control characters inside strings are errors; a `\u` escape pair forms one character
//! above U+FFFF, and a lone surrogate (which a Rust string cannot hold) is an error. Nesting is
//! limited to [`MAX_DEPTH`] levels so no input exhausts the stack.
//!
//! **Writing** uses the defaults of `json.dumps` (separators `", "` and `": "`, `ensure_ascii`;
//! see `super::pyjson`) with every object's keys sorted by code point, except [`Node::Ordered`]
//! objects (a program's `hints`: Python's keys there are ints, so they sort numerically; the
//! caller orders them).

use super::error::ClassHashError;
use super::pyjson;
use std::borrow::Cow;
use std::string::String;
use std::vec::Vec;

/// Deepest nesting accepted (serde_json's default limit).
pub(crate) const MAX_DEPTH: usize = 128;

/// A JSON value; numbers as their literal text.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Node<'a> {
    Null,
    Bool(bool),
    Num(&'a str),
    Str(Cow<'a, str>),
    Arr(Vec<Node<'a>>),
    /// Members in input order; keys are unique (a repeated key replaced the earlier value).
    Obj(Vec<(Cow<'a, str>, Node<'a>)>),
    /// An object written in the order its members are stored (not sorted): for the
    /// integer-keyed objects whose members the caller put in numeric order.
    Ordered(Vec<(Cow<'a, str>, Node<'a>)>),
}

impl<'a> Node<'a> {
    /// The JSON kind, for error messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "a boolean",
            Node::Num(_) => "a number",
            Node::Str(_) => "a string",
            Node::Arr(_) => "an array",
            Node::Obj(_) | Node::Ordered(_) => "an object",
        }
    }

    /// The member `key` of an object.
    pub(crate) fn get(&self, key: &str) -> Option<&Node<'a>> {
        match self {
            Node::Obj(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The member `key` of an object, mutably.
    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut Node<'a>> {
        match self {
            Node::Obj(m) => m.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Removes the member `key` of an object and returns it.
    pub(crate) fn remove(&mut self, key: &str) -> Option<Node<'a>> {
        match self {
            Node::Obj(m) => {
                let i = m.iter().position(|(k, _)| k == key)?;
                Some(m.remove(i).1)
            }
            _ => None,
        }
    }

    /// Sets the member `key` of an object (appended when absent).
    pub(crate) fn set(&mut self, key: &'static str, value: Node<'a>) {
        if let Node::Obj(m) = self {
            match m.iter_mut().find(|(k, _)| k == key) {
                Some((_, v)) => *v = value,
                None => m.push((Cow::Borrowed(key), value)),
            }
        }
    }
}

/// Parses `text` as one JSON value (surrounding whitespace allowed).
pub(crate) fn parse(text: &str) -> Result<Node<'_>, ClassHashError> {
    let mut p = Parser {
        text,
        s: text.as_bytes(),
        i: 0,
    };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i < p.s.len() {
        return Err(p.error("trailing characters"));
    }
    Ok(v)
}

struct Parser<'a> {
    text: &'a str,
    s: &'a [u8],
    i: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, message: &str) -> ClassHashError {
        let upto = &self.s[..self.i.min(self.s.len())];
        let line = 1 + upto.iter().filter(|&&b| b == b'\n').count();
        let column = 1 + upto.iter().rev().take_while(|&&b| b != b'\n').count();
        ClassHashError::InvalidJson {
            message: message.into(),
            line,
            column,
        }
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eat(&mut self, lit: &[u8]) -> bool {
        if self.s[self.i..].starts_with(lit) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node<'a>, ClassHashError> {
        if depth >= MAX_DEPTH {
            return Err(self.error("recursion limit exceeded"));
        }
        match self.s.get(self.i) {
            None => Err(self.error("EOF while parsing a value")),
            Some(b'{') => {
                self.i += 1;
                let mut members: Vec<(Cow<'a, str>, Node<'a>)> = Vec::new();
                self.ws();
                if self.eat(b"}") {
                    return Ok(Node::Obj(members));
                }
                loop {
                    self.ws();
                    if self.s.get(self.i) != Some(&b'"') {
                        return Err(self.error("expected a key string"));
                    }
                    let key = self.string()?;
                    self.ws();
                    if !self.eat(b":") {
                        return Err(self.error("expected `:`"));
                    }
                    self.ws();
                    let v = self.value(depth + 1)?;
                    match members.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, old)) => *old = v,
                        None => members.push((key, v)),
                    }
                    self.ws();
                    if self.eat(b",") {
                        continue;
                    }
                    if self.eat(b"}") {
                        return Ok(Node::Obj(members));
                    }
                    return Err(self.error("expected `,` or `}`"));
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.eat(b"]") {
                    return Ok(Node::Arr(items));
                }
                loop {
                    self.ws();
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    if self.eat(b",") {
                        continue;
                    }
                    if self.eat(b"]") {
                        return Ok(Node::Arr(items));
                    }
                    return Err(self.error("expected `,` or `]`"));
                }
            }
            Some(b'"') => Ok(Node::Str(self.string()?)),
            Some(b't') if self.eat(b"true") => Ok(Node::Bool(true)),
            Some(b'f') if self.eat(b"false") => Ok(Node::Bool(false)),
            Some(b'n') if self.eat(b"null") => Ok(Node::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected a value")),
        }
    }

    /// A number literal per RFC 8259, kept as text.
    fn number(&mut self) -> Result<Node<'a>, ClassHashError> {
        let start = self.i;
        let digits = |p: &mut Parser<'a>| {
            let from = p.i;
            while p.i < p.s.len() && p.s[p.i].is_ascii_digit() {
                p.i += 1;
            }
            p.i > from
        };
        self.eat(b"-");
        if self.eat(b"0") {
            // A leading zero stands alone.
        } else if !digits(self) {
            return Err(self.error("invalid number"));
        }
        if self.eat(b".") && !digits(self) {
            return Err(self.error("invalid number"));
        }
        if self.i < self.s.len() && matches!(self.s[self.i], b'e' | b'E') {
            self.i += 1;
            if !self.eat(b"+") {
                self.eat(b"-");
            }
            if !digits(self) {
                return Err(self.error("invalid number"));
            }
        }
        Ok(Node::Num(&self.text[start..self.i]))
    }

    /// A string starting at the opening quote.
    fn string(&mut self) -> Result<Cow<'a, str>, ClassHashError> {
        self.i += 1;
        let start = self.i;
        // Fast path: no escape before the closing quote.
        while self.i < self.s.len() {
            match self.s[self.i] {
                b'"' => {
                    let s = &self.text[start..self.i];
                    self.i += 1;
                    return Ok(Cow::Borrowed(s));
                }
                b'\\' => break,
                c if c < 0x20 => return Err(self.error("control character in a string")),
                _ => self.i += 1,
            }
        }
        let mut out = String::from(&self.text[start..self.i]);
        loop {
            let Some(&c) = self.s.get(self.i) else {
                return Err(self.error("EOF while parsing a string"));
            };
            match c {
                b'"' => {
                    self.i += 1;
                    return Ok(Cow::Owned(out));
                }
                b'\\' => {
                    self.i += 1;
                    let Some(&e) = self.s.get(self.i) else {
                        return Err(self.error("EOF while parsing a string"));
                    };
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xd800..0xdc00).contains(&hi) {
                                if !self.eat(b"\\u") {
                                    return Err(self.error("lone surrogate in a string"));
                                }
                                let lo = self.hex4()?;
                                if !(0xdc00..0xe000).contains(&lo) {
                                    return Err(self.error("lone surrogate in a string"));
                                }
                                0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                            } else {
                                hi
                            };
                            match char::from_u32(code) {
                                Some(ch) => out.push(ch),
                                None => return Err(self.error("lone surrogate in a string")),
                            }
                        }
                        _ => return Err(self.error("invalid escape")),
                    }
                }
                c if c < 0x20 => return Err(self.error("control character in a string")),
                _ => {
                    // Copy up to the next quote or backslash (the text is valid UTF-8, and
                    // both delimiters are ASCII, so the slice ends on a character boundary).
                    let from = self.i;
                    while self.i < self.s.len()
                        && !matches!(self.s[self.i], b'"' | b'\\')
                        && self.s[self.i] >= 0x20
                    {
                        self.i += 1;
                    }
                    out.push_str(&self.text[from..self.i]);
                }
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, ClassHashError> {
        let Some(h) = self.s.get(self.i..self.i + 4) else {
            return Err(self.error("EOF in a \\u escape"));
        };
        let mut v = 0u32;
        for &c in h {
            let d = (c as char)
                .to_digit(16)
                .ok_or_else(|| self.error("invalid \\u escape"))?;
            v = v * 16 + d;
        }
        self.i += 4;
        Ok(v)
    }
}

/// Appends `json.dumps(node, sort_keys=True)` to `out` ([`Node::Ordered`] objects in their
/// stored order).
pub(crate) fn dumps_sorted(node: &Node<'_>, out: &mut Vec<u8>) {
    match node {
        Node::Null => out.extend_from_slice(b"null"),
        Node::Bool(true) => out.extend_from_slice(b"true"),
        Node::Bool(false) => out.extend_from_slice(b"false"),
        Node::Num(n) => out.extend_from_slice(n.as_bytes()),
        Node::Str(s) => pyjson::string(s, out),
        Node::Arr(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                dumps_sorted(item, out);
            }
            out.push(b']');
        }
        Node::Obj(members) => {
            let mut order: Vec<&(Cow<'_, str>, Node<'_>)> = members.iter().collect();
            order.sort_by(|a, b| a.0.cmp(&b.0));
            members_out(order, out);
        }
        Node::Ordered(members) => members_out(members.iter().collect(), out),
    }
}

fn members_out(members: Vec<&(Cow<'_, str>, Node<'_>)>, out: &mut Vec<u8>) {
    out.push(b'{');
    for (i, (k, v)) in members.into_iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        pyjson::string(k, out);
        out.extend_from_slice(b": ");
        dumps_sorted(v, out);
    }
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dump(text: &str) -> String {
        let n = parse(text).unwrap();
        let mut out = Vec::new();
        dumps_sorted(&n, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn python_sorted_output() {
        // Outputs as CPython 3 `json.dumps(json.loads(s), sort_keys=True)` writes them.
        assert_eq!(
            dump(r#"{"b":1,"a":[true,null,"x"]}"#),
            r#"{"a": [true, null, "x"], "b": 1}"#
        );
        assert_eq!(
            dump(
                r#"{"v": -1067993325349436935946108133924014962612617349733108826097093787917434658816}"#
            ),
            r#"{"v": -1067993325349436935946108133924014962612617349733108826097093787917434658816}"#
        );
        assert_eq!(
            dump(r#""caf\u00e9 \ud83d\udca9 é""#),
            r#""caf\u00e9 \ud83d\udca9 \u00e9""#
        );
        assert_eq!(dump(r#"{"a":1,"a":2}"#), r#"{"a": 2}"#);
        assert_eq!(dump(" [ ] "), "[]");
    }

    #[test]
    fn ordered_objects_keep_their_order() {
        let Node::Obj(m) = parse(r#"{"10": 1, "2": 2, "0": 3}"#).unwrap() else {
            panic!()
        };
        let mut out = Vec::new();
        dumps_sorted(&Node::Ordered(m), &mut out);
        assert_eq!(out, br#"{"10": 1, "2": 2, "0": 3}"#);
    }

    #[test]
    fn malformed_input_is_an_error_with_a_position() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\" 1}",
            "01",
            "1.",
            "\"\\x\"",
            "\"\\ud800\"",
            "\"a\nb\"",
            "[1] x",
            "tru",
        ] {
            assert!(
                matches!(parse(bad), Err(ClassHashError::InvalidJson { .. })),
                "{bad:?}"
            );
        }
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert!(parse(&deep).is_err());
        match parse("{\n  \"a\": x}") {
            Err(ClassHashError::InvalidJson { line, column, .. }) => {
                assert_eq!((line, column), (2, 8))
            }
            other => panic!("{other:?}"),
        }
    }
}
