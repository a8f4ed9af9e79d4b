//! This page's own address, as the notices and links need it.

/// The page's origin (`scheme://host:port`): what OLLAMA_ORIGINS or a bridge's
/// `--page-origin` must name.
pub fn origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

/// This page's address without query or fragment: the base of a share link (the
/// query may hold the bridge's token), and what `--page-origin` should name so that
/// the bridge's printed link opens this very page.
pub fn page_url() -> String {
    web_sys::window()
        .map(|w| w.location())
        .map(|l| {
            [
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default(),
            ]
            .concat()
        })
        .unwrap_or_default()
}
