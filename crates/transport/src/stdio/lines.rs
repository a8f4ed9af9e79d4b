//! Reading lines with a bound on their length, so that a server that writes an
//! endless line cannot make the client buffer it all. The bridge uses it too.

use std::io;

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One line read by [`read_line`].
#[derive(Debug, PartialEq, Eq)]
pub struct BoundedLine {
    /// The bytes kept (at most the bound), without `\n` or a trailing `\r`.
    pub bytes: Vec<u8>,
    /// How many bytes the whole line had, when it was longer than the bound.
    pub cut_from: Option<usize>,
}

/// Reads one `\n`-terminated line, keeping at most `max` bytes of it (the rest is
/// read and dropped). `None` at end of input. A last line without `\n` still counts.
pub async fn read_line<R: AsyncBufRead + Unpin>(
    r: &mut R,
    max: usize,
) -> io::Result<Option<BoundedLine>> {
    let mut bytes = Vec::new();
    let mut total = 0usize;
    let mut seen_any = false;
    loop {
        let avail = r.fill_buf().await?;
        if avail.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (chunk, used, done) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (&avail[..i], i + 1, true),
            None => (avail, avail.len(), false),
        };
        let room = max.saturating_sub(bytes.len());
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        total = total.saturating_add(chunk.len());
        r.consume(used);
        if done {
            break;
        }
    }
    if bytes.last() == Some(&b'\r') && total <= max {
        bytes.pop();
        total -= 1;
    }
    let cut_from = (total > max).then_some(total);
    Ok(Some(BoundedLine { bytes, cut_from }))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lines_are_split_bounded_and_crlf_trimmed() {
        let mut input: &[u8] = b"one\r\ntwo-is-long\nlast";
        let a = read_line(&mut input, 8).await.unwrap().unwrap();
        assert_eq!(
            a,
            BoundedLine {
                bytes: b"one".to_vec(),
                cut_from: None
            }
        );
        let b = read_line(&mut input, 8).await.unwrap().unwrap();
        assert_eq!(
            b,
            BoundedLine {
                bytes: b"two-is-l".to_vec(),
                cut_from: Some(11)
            }
        );
        let c = read_line(&mut input, 8).await.unwrap().unwrap();
        assert_eq!(c.bytes, b"last");
        assert_eq!(read_line(&mut input, 8).await.unwrap(), None);
    }
}
