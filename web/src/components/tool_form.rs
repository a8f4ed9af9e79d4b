//! Playing the model: pick a tool, fill the form generated from its `inputSchema`
//! (or edit raw JSON), see what does not fit the schema, and send it as step 3.

use leptos::prelude::*;
use mcpg_core::model::{JsonObject, Tool};
use mcpg_host::form::{self, FieldError, FieldErrorKind, Values};
use mcpg_host::provider::{ModelTurn, NameMap, ToolCall};
use mcpg_host::schema;
use serde_json::Value;

use super::form_field::FormField;
use super::play_box::reply_preview;
use crate::effects;
use crate::state::{pretty, use_app};

/// The arguments and problems for the current input.
fn evaluate(
    tool: &Tool,
    raw_mode: bool,
    raw: &str,
    values: &Values,
) -> (JsonObject, Vec<FieldError>) {
    if raw_mode {
        match form::parse_arguments(raw) {
            Ok(o) => {
                let errors = schema::validate(&tool.input_schema, &Value::Object(o.clone()))
                    .into_iter()
                    .map(|e| FieldError::invalid(e.path, e.message))
                    .collect();
                (o, errors)
            }
            Err(e) => (JsonObject::new(), vec![FieldError::from(e)]),
        }
    } else {
        let fields = form::fields(&tool.input_schema);
        form::build(&tool.input_schema, &fields, values)
    }
}

/// The form panel.
#[component]
pub fn ToolForm() -> impl IntoView {
    let st = use_app();
    let values = RwSignal::new(Values::new());
    let tried = RwSignal::new(false);
    let raw_mode = RwSignal::new(false);
    let raw = RwSignal::new("{}".to_owned());
    // A new tool (or new seed arguments) starts a fresh form.
    Effect::new(move |_| {
        let tool = st.form_tool.get();
        let seed = st.form_seed.get();
        if let Some(t) = tool {
            let fields = form::fields(&t.input_schema);
            values.set(form::initial_values(&fields, seed.as_ref()));
            raw.set(pretty(&Value::Object(seed.unwrap_or_default())));
        }
        tried.set(false);
    });
    let result = Memo::new(move |_| {
        st.form_tool.with(|t| {
            t.as_ref()
                .map(|t| evaluate(t, raw_mode.get(), &raw.get(), &values.get()))
        })
    });
    let errors = Signal::derive(move || {
        let errs = result.with(|r| r.as_ref().map(|r| r.1.clone()).unwrap_or_default());
        // "required" only after a send attempt: an empty new form is not a mistake.
        if tried.get() {
            errs
        } else {
            errs.into_iter()
                .filter(|e| e.kind != FieldErrorKind::Required)
                .collect()
        }
    });
    let send = move |check: bool| {
        tried.set(true);
        let Some(tool) = st.form_tool.get_untracked() else {
            return;
        };
        let Some((args, errs)) = result.get_untracked() else {
            return;
        };
        // Unreadable arguments cannot be sent at all, checked or not.
        let unreadable = errs.iter().any(|e| e.kind == FieldErrorKind::Unreadable);
        if (check && !errs.is_empty()) || unreadable {
            return;
        }
        effects::play_model(tool.name, args);
    };
    // What the learner's call looks like as the model's reply, in the chosen format.
    let preview = move || {
        let name = st.form_tool.with(|t| t.as_ref().map(|t| t.name.clone()))?;
        let arguments = result.with(|r| r.as_ref().map(|r| r.0.clone()).unwrap_or_default());
        let provider = st.provider.get();
        let names = st.pages.with(|p| {
            NameMap::build(
                p.iter()
                    .flat_map(|p| p.tools.iter().map(|t| t.name.as_str())),
                mcpg_host::provider::name_rules(provider),
            )
        });
        let turn = ModelTurn::ToolCalls {
            text: None,
            calls: vec![ToolCall {
                id: "call_1".into(),
                name,
                arguments,
            }],
        };
        Some(reply_preview(provider, &turn, &names))
    };
    let tool_names = move || {
        st.all_tools()
            .into_iter()
            .map(|t| t.name)
            .collect::<Vec<_>>()
    };
    let fields = move || {
        st.form_tool.get().map(|t| {
            form::fields(&t.input_schema)
                .into_iter()
                .map(|f| view! { <FormField field=f values=values errors=errors/> })
                .collect_view()
        })
    };
    view! {
        <div class="form" data-testid="tool-form">
            <p class="hint">"Play the model: choose a tool and its arguments yourself. The host sends them as step 3 and runs the rest of the loop."</p>
            <label for="form-tool">"Tool"</label>
            <select id="form-tool" data-testid="form-tool-select"
                prop:value=move || st.form_tool.with(|t| t.as_ref().map(|t| t.name.clone()).unwrap_or_default())
                on:change=move |ev| {
                    let name = event_target_value(&ev);
                    st.form_seed.set(None);
                    st.form_tool.set(st.all_tools().into_iter().find(|t| t.name == name));
                }>
                <option value="">"(choose a tool)"</option>
                <For each=tool_names key=|n| n.clone() let:name>
                    <option value=name.clone()>{name.clone()}</option>
                </For>
            </select>
            <Show when=move || st.form_tool.with(Option::is_some)>
                <p class="tool-desc">{move || st.form_tool.with(|t| t.as_ref().and_then(|t| t.description.clone()).unwrap_or_default())}</p>
                <label class="check">
                    <input type="checkbox" data-testid="raw-toggle"
                        prop:checked=move || raw_mode.get()
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            if on {
                                let args = result.with_untracked(|r| r.as_ref().map(|r| r.0.clone()).unwrap_or_default());
                                raw.set(pretty(&Value::Object(args)));
                            }
                            raw_mode.set(on);
                        }/>
                    " Edit the arguments as raw JSON"
                </label>
                <Show when=move || raw_mode.get()
                    fallback=move || view! { <div class="fields">{fields}</div> }>
                    <label for="raw-json" class="visually-hidden">"Arguments as JSON"</label>
                    <textarea id="raw-json" data-testid="raw-json" rows="10"
                        prop:value=move || raw.get()
                        on:input=move |ev| raw.set(event_target_value(&ev))></textarea>
                </Show>
                <ul class="errors" data-testid="form-errors">
                    <For each=move || errors.get() key=|e| (e.path.clone(), e.message.clone()) let:e>
                        <li>{if e.path.is_empty() { e.message.clone() } else { format!("{}: {}", e.path, e.message) }}</li>
                    </For>
                </ul>
                <details class="json">
                    <summary>"The reply this makes, in the chosen API's format"</summary>
                    <pre tabindex="0" data-testid="form-preview">{preview}</pre>
                </details>
                <div class="buttons">
                    <button class="primary" data-testid="form-send" on:click=move |_| send(true)>"Send as the model"</button>
                    <button data-testid="form-send-anyway" on:click=move |_| send(false)
                        title="Skip the host's check and let the server judge the arguments">"Send without checking"</button>
                </div>
            </Show>
        </div>
    }
}
