//! Reading an OAuth answer's body with a ceiling ([`mcpg_auth::MAX_ANSWER_BYTES`]):
//! metadata, registration and token answers are a few kilobytes, and a hostile
//! authorization server must not make the CLI hold an endless one.

/// Why a body was not read.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum BodyError {
    /// Over the ceiling (by `Content-Length`, or once that many bytes came).
    #[error("the answer is larger than the {limit}-byte limit for OAuth answers")]
    TooLarge {
        /// The ceiling, in bytes.
        limit: usize,
    },
    /// The connection failed while reading.
    #[error("{0}")]
    Read(String),
}

/// The body as text (invalid UTF-8 replaced), or why not; never more than `limit`
/// bytes are held.
pub(super) async fn read_capped(
    mut resp: reqwest::Response,
    limit: usize,
) -> Result<String, BodyError> {
    let too_large = BodyError::TooLarge { limit };
    // A declared length over the ceiling is refused before a byte is read.
    if resp
        .content_length()
        .is_some_and(|n| usize::try_from(n).map_or(true, |n| n > limit))
    {
        return Err(too_large);
    }
    let mut buf = Vec::new();
    while let Some(chunk) = resp
        .chunk()
        .await
        .map_err(|e| BodyError::Read(super::super::exec::describe(&e)))?
    {
        if buf.len().saturating_add(chunk.len()) > limit {
            return Err(too_large);
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

#[cfg(test)]
// A test fails by panicking.
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn answer(body: Vec<u8>) -> reqwest::Response {
        reqwest::Response::from(axum::http::Response::new(body))
    }

    #[tokio::test]
    async fn bodies_up_to_the_ceiling_are_read_and_longer_ones_refused() {
        let ok = read_capped(answer(b"{\"a\":1}".to_vec()), 7).await;
        assert_eq!(ok.as_deref(), Ok("{\"a\":1}"));
        let long = read_capped(answer(vec![b'x'; 8]), 7).await;
        assert_eq!(long, Err(BodyError::TooLarge { limit: 7 }));
        let text = BodyError::TooLarge { limit: 7 }.to_string();
        assert!(text.contains("7-byte limit"), "{text}");
    }

    #[tokio::test]
    async fn a_declared_length_over_the_ceiling_is_refused_before_reading() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        // A server that announces a gigabyte, sends a little, and keeps the
        // connection open: waiting for the body would hang.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.unwrap();
            let mut req = [0u8; 1024];
            let _ = s.read(&mut req).await.unwrap();
            let head = "HTTP/1.1 200 OK\r\nContent-Length: 1073741824\r\n\r\n{\"a\":";
            s.write_all(head.as_bytes()).await.unwrap();
            tokio::time::sleep(std::time::Duration::from_secs(60)).await;
        });
        let resp = reqwest::get(&url).await.unwrap();
        let r = tokio::time::timeout(std::time::Duration::from_secs(10), read_capped(resp, 1024))
            .await
            .unwrap();
        assert_eq!(r, Err(BodyError::TooLarge { limit: 1024 }));
    }
}
