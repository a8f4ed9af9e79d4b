//! The built page, from `dist/`. Before it is built, `/` says how to build it
//! rather than answering a bare 404.

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::ServeDir;

use crate::state::AppState;

const NOT_BUILT: &str = "MCP Playground bridge\n\n\
The page is not built yet: run `cargo xtask play` in the workspace (it builds web/ \
into dist/), or pass --dist DIR pointing at a built copy.\n\n\
The bridge API works meanwhile: /api/servers, /ws, /api/events, /relay/NAME.\n";

/// Serves a file from the dist folder.
pub(crate) async fn serve(State(st): State<AppState>, req: Request) -> Response {
    // Checked per request, so building the page while the bridge runs just works.
    let built = st.dist().join("index.html").is_file();
    if !built && req.uri().path() == "/" {
        return (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            NOT_BUILT,
        )
            .into_response();
    }
    match ServeDir::new(st.dist()).oneshot(req).await {
        Ok(res) => res.into_response(),
        Err(never) => match never {},
    }
}
