//! One field of the tool form, by the kind its schema asks for; nested objects
//! recurse into a fieldset.

use leptos::prelude::*;
use mcpg_host::form::{Field, FieldError, FieldKind, Values};

fn input_id(path: &str) -> String {
    format!("field-{}", path.replace('.', "-"))
}

/// One field with its label, description, hint and error.
#[component]
pub fn FormField(
    /// The field.
    field: Field,
    /// All input, by path.
    values: RwSignal<Values>,
    /// Current problems.
    #[prop(into)]
    errors: Signal<Vec<FieldError>>,
) -> AnyView {
    let path = field.path.clone();
    if let FieldKind::Object(inner) = field.kind {
        let children = inner
            .into_iter()
            .map(|f| view! { <FormField field=f values=values errors=errors/> })
            .collect_view();
        return view! {
            <fieldset class="nested" data-testid="form-field" data-path=path>
                <legend>{field.key}{field.required.then_some(" *")}</legend>
                {field.description.map(|d| view! { <p class="field-desc">{d}</p> })}
                {children}
            </fieldset>
        }
        .into_any();
    }
    let id = input_id(&path);
    let key = path.clone();
    let value = {
        let key = key.clone();
        move || values.with(|v| v.get(&key).cloned().unwrap_or_default())
    };
    let set = {
        let key = key.clone();
        move |text: String| {
            values.update(|v| {
                v.insert(key.clone(), text);
            })
        }
    };
    let error = {
        let key = key.clone();
        move || {
            errors.with(|es| {
                es.iter()
                    .filter(|e| e.path == key)
                    .map(|e| e.message.clone())
                    .collect::<Vec<_>>()
                    .join("; ")
            })
        }
    };
    let has_error = {
        let e = error.clone();
        move || !e().is_empty()
    };
    let control = match &field.kind {
        FieldKind::Boolean => {
            let set = set.clone();
            view! {
                <select id=id.clone() data-testid="form-input" prop:value=value.clone()
                    on:change=move |ev| set(event_target_value(&ev))>
                    <option value="">"(not set)"</option>
                    <option value="true">"true"</option>
                    <option value="false">"false"</option>
                </select>
            }
            .into_any()
        }
        FieldKind::Enum(options) => {
            let set = set.clone();
            // The schema's titles when it gives them ("6 pm"), with the value that
            // is sent beside it ("18:00"), so the learner sees both.
            let opts = options
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    let raw = o.as_str().map_or_else(|| o.to_string(), str::to_owned);
                    let label = match field.titles.get(i) {
                        Some(t) if *t != raw => format!("{t} ({raw})"),
                        _ => raw,
                    };
                    view! { <option value=o.to_string()>{label}</option> }
                })
                .collect_view();
            view! {
                <select id=id.clone() data-testid="form-input" prop:value=value.clone()
                    on:change=move |ev| set(event_target_value(&ev))>
                    <option value="">"(not set)"</option>
                    {opts}
                </select>
            }
            .into_any()
        }
        FieldKind::List(_) | FieldKind::Json => {
            let set = set.clone();
            view! {
                <textarea id=id.clone() data-testid="form-input" rows="3" prop:value=value.clone()
                    on:input=move |ev| set(event_target_value(&ev))></textarea>
            }
            .into_any()
        }
        kind => {
            let set = set.clone();
            let (ty, step) = match kind {
                FieldKind::Number => ("number", "any"),
                FieldKind::Integer => ("number", "1"),
                _ => ("text", ""),
            };
            view! {
                <input id=id.clone() type=ty step=step data-testid="form-input" prop:value=value.clone()
                    on:input=move |ev| set(event_target_value(&ev))/>
            }
            .into_any()
        }
    };
    let label = field.key.clone();
    let hint = field.hint.clone();
    view! {
        <div class="field" class:invalid=has_error data-testid="form-field" data-path=path>
            <label for=id>
                <code>{label}</code>
                {field.required.then(|| view! { <span class="req" title="required">" *"</span> })}
                {hint.map(|h| view! { <span class="field-hint">{format!(" ({h})")}</span> })}
            </label>
            {field.description.map(|d| view! { <p class="field-desc">{d}</p> })}
            {control}
            <p class="field-error" data-testid="field-error">{error}</p>
        </div>
    }
    .into_any()
}
