//! A server's stdout line longer than the bridge's limit is dropped, and the request
//! it answered would wait for its timeout (the page gives up after 60 s). The kept
//! first bytes of such a line usually name that request
//! (`{"jsonrpc":"2.0","id":7,"result":…`): then the page gets, at once, a JSON-RPC
//! error for that id saying what the bridge did. Only a response is answered so:
//! a cut request or notification of the server's (it has `method`), or a line whose
//! `id` is not in the kept bytes, gets the side channel's notice alone.

use serde_json::{Value, json};

/// The JSON-RPC error code of the bridge's answer (internal error: the answer
/// existed but could not be carried).
pub(crate) const DROPPED_CODE: i64 = -32603;

/// The id of the response whose first bytes are `prefix`: its top-level `id`,
/// read whole, followed by `result` or `error` (and no `method` before them).
pub(crate) fn response_id(prefix: &[u8]) -> Option<Value> {
    let mut s = Scan { b: prefix, i: 0 };
    s.ws();
    s.eat(b'{')?;
    let mut id = None;
    loop {
        s.ws();
        let key = s.string()?;
        s.ws();
        s.eat(b':')?;
        s.ws();
        match key {
            b"\"id\"" => id = Some(s.scalar()?),
            b"\"result\"" | b"\"error\"" => return id,
            b"\"method\"" => return None,
            _ => s.skip_value()?,
        }
        s.ws();
        match s.next()? {
            b',' => continue,
            _ => return None,
        }
    }
}

/// The error the page gets for response `id`, cut at `max` of its `bytes`.
pub(crate) fn dropped_error(id: &Value, bytes: usize, max: usize) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {
            "code": DROPPED_CODE,
            "message": format!(
                "the bridge dropped the server's answer: {bytes} bytes, over its limit of \
                 {max} bytes (limits.max_message_bytes in the bridge's config)"
            ),
        },
    })
    .to_string()
}

/// A cursor over the kept bytes; every step is `None` where they run out.
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scan<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.next()? == c).then_some(())
    }

    /// A whole string, quotes included.
    fn string(&mut self) -> Option<&'a [u8]> {
        let start = self.i;
        self.eat(b'"')?;
        loop {
            match self.next()? {
                b'\\' => {
                    self.next()?;
                }
                b'"' => return self.b.get(start..self.i),
                _ => {}
            }
        }
    }

    /// An id: a string or a number, whole (what follows it is in the kept bytes).
    fn scalar(&mut self) -> Option<Value> {
        let start = self.i;
        if self.peek()? == b'"' {
            self.string()?;
        } else {
            while matches!(self.peek()?, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                self.i += 1;
            }
        }
        let v: Value = serde_json::from_slice(self.b.get(start..self.i)?).ok()?;
        (v.is_string() || v.is_number()).then_some(v)
    }

    /// Any value, whole: strings, and brackets counted.
    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(|_| ()),
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                self.i += 1;
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.i += 1;
                }
            }
            // A bare scalar (a number, true, false, null), up to its delimiter.
            _ => {
                while !matches!(
                    self.peek()?,
                    b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n'
                ) {
                    self.i += 1;
                }
                Some(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(text: &str) -> Option<Value> {
        response_id(text.as_bytes())
    }

    #[test]
    fn the_id_before_the_result_is_read_from_the_kept_bytes() {
        assert_eq!(
            id(r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"ty"#),
            Some(json!(7))
        );
        assert_eq!(
            id(r#"{ "id" : "a\"b", "jsonrpc":"2.0", "error": {"#),
            Some(json!("a\"b"))
        );
        assert_eq!(
            id(r#"{"jsonrpc":"2.0","extra":{"id":1,"x":[1,{"y":"}"}]},"id":3,"result":"#),
            Some(json!(3))
        );
    }

    #[test]
    fn a_cut_id_a_late_id_a_request_or_junk_names_nothing() {
        // The id itself is cut: 12 might be 123.
        assert_eq!(id(r#"{"jsonrpc":"2.0","id":12"#), None);
        // The result comes first and is what was cut.
        assert_eq!(
            id(r#"{"jsonrpc":"2.0","result":{"content":"xxxxxxxx"#),
            None
        );
        // A request of the server's: the page must not see an error for its own ids.
        assert_eq!(
            id(r#"{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage","params":"#),
            None
        );
        assert_eq!(id(r#"{"jsonrpc":"2.0","id":null,"error":{"#), None);
        assert_eq!(id("xxxxxxxx"), None);
        assert_eq!(id(""), None);
    }

    #[test]
    fn the_error_names_the_sizes_and_the_setting() {
        let e: Value = serde_json::from_str(&dropped_error(&json!(7), 10_000_000, 4096)).unwrap();
        assert_eq!(e["id"], 7);
        assert_eq!(e["error"]["code"], DROPPED_CODE);
        let m = e["error"]["message"].as_str().unwrap();
        assert!(
            m.contains("10000000 bytes") && m.contains("4096 bytes"),
            "{m}"
        );
        assert!(m.contains("limits.max_message_bytes"), "{m}");
    }
}
