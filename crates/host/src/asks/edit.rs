//! The learner's edit of a sampling request: what a real model is asked instead of
//! the server's own words (the server's request itself is kept as sent).

use serde_json::{Value, json};

/// Sampling `params` with the text of its last `user` message replaced by `text` (the
/// learner's edit), or as sent when it has none. One text block is valid content
/// in every revision (2025-11-25 also allows a list).
pub fn edited_params(params: &Value, text: &str) -> Value {
    let mut params = params.clone();
    let last_user = params
        .get_mut("messages")
        .and_then(Value::as_array_mut)
        .and_then(|ms| {
            ms.iter_mut()
                .rev()
                .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
        });
    if let Some(Value::Object(m)) = last_user {
        m.insert("content".into(), json!({"type": "text", "text": text}));
    }
    params
}

#[cfg(test)]
mod tests {
    use super::edited_params;
    use serde_json::json;

    #[test]
    fn the_edit_replaces_the_last_user_message_only() {
        let params = json!({"messages": [
            {"role": "user", "content": [{"type": "text", "text": "first"}]},
            {"role": "assistant", "content": {"type": "text", "text": "reply"}},
            {"role": "user", "content": [{"type": "text", "text": "second"}, {"type": "text", "text": "more"}]}],
            "maxTokens": 9});
        let edited = edited_params(&params, "changed");
        assert_eq!(edited["messages"][0], params["messages"][0]);
        assert_eq!(edited["messages"][1], params["messages"][1]);
        assert_eq!(
            edited["messages"][2]["content"],
            json!({"type": "text", "text": "changed"})
        );
        assert_eq!(edited["maxTokens"], 9);
    }

    #[test]
    fn a_request_without_a_user_message_is_left_as_sent() {
        let params =
            json!({"messages": [{"role": "assistant", "content": {"type": "text", "text": "x"}}]});
        assert_eq!(edited_params(&params, "changed"), params);
    }
}
