//! The Skills panel (MCP Skills, `io.modelcontextprotocol/skills`): the server's
//! skills, each file with the size and SHA-256 its entry promises, **Read and
//! verify** to fetch them (`resources/read`) and check each, and **Use in the loop**
//! to tell the model a verified skill's instructions in the next loops.

use leptos::prelude::*;
use mcpg_page::features::view::{FileCheck, ListState, SkillFileView, SkillView};

use super::list_state::ListStateLine;
use crate::effects::features;
use crate::state::use_app;

fn file_row(f: SkillFileView) -> impl IntoView {
    let (check, class) = match &f.check {
        FileCheck::Unread => ("not read".to_owned(), "muted"),
        FileCheck::Reading => ("reading…".to_owned(), "muted"),
        FileCheck::Verified => ("verified: size and digest match".to_owned(), "ok"),
        FileCheck::Refused(why) => (format!("refused, not used: {why}"), "bad"),
    };
    view! {
        <li data-testid="skill-file" data-path=f.path.clone()>
            <code>{f.path.clone()}</code>" · "{format!("{} bytes", f.size)}
            <br/><code class="muted digest">{f.digest.clone()}</code>
            <br/><span class=class data-testid="skill-file-check">{check}</span>
        </li>
    }
}

fn skill_row(s: SkillView) -> impl IntoView {
    let name = s.name.clone();
    let (read_name, use_name) = (name.clone(), name.clone());
    let used = s.used;
    let verified = s.instructions.is_some();
    let files = s.files.clone().into_iter().map(file_row).collect_view();
    let invalid = s.invalid.clone().map(|why| {
        view! { <p class="hint bad" data-testid="skill-invalid">{format!("Invalid entry, not loaded: {why}")}</p> }
    });
    let can_read = s.invalid.is_none() && !s.files.is_empty();
    view! {
        <li class="prompt" data-testid="skill" data-name=name.clone()>
            <p><strong>{name.clone()}</strong>" "<code>{s.uri.clone()}</code></p>
            <p class="muted">{s.description.clone()}</p>
            {invalid}
            <ul class="skill-files">{files}</ul>
            <Show when=move || can_read>
                <button type="button" class="quiet" data-testid="skill-read"
                    on:click={
                        let n = read_name.clone();
                        move |_| features::read_skill(n.clone())
                    }>"Read and verify"</button>
            </Show>
            <label class="check">
                <input type="checkbox" data-testid="skill-use"
                    prop:checked=used
                    disabled=!verified
                    on:change={
                        let n = use_name.clone();
                        move |ev| features::use_skill(n.clone(), event_target_checked(&ev))
                    }/>
                " Use in the loop (its SKILL.md joins the system prompt, shown in step 2)"
            </label>
        </li>
    }
}

/// The Skills panel.
#[component]
pub fn SkillsPanel() -> impl IntoView {
    let fs = use_app().features;
    if fs.skills.with_untracked(|v| v.state == ListState::Idle) {
        features::list_skills();
    }
    let rows = move || {
        fs.skills
            .get()
            .skills
            .into_iter()
            .map(skill_row)
            .collect_view()
    };
    view! {
        <div class="prompts" data-testid="skills-panel">
            <div class="tools-head">
                <button class="quiet" data-testid="skills-refresh" on:click=move |_| features::list_skills()>"List again"</button>
                <ListStateLine state=Signal::derive(move || fs.skills.with(|v| v.state.clone())) what="skills"/>
            </div>
            <p class="hint">"A skill is a folder of instructions a server publishes (skills/list, 2026-07-28's Skills extension). Unlike a prompt, which the user picks to start a conversation, a skill's SKILL.md is context the host gives the model. The host reads each file and checks its size and SHA-256 before using it."</p>
            <ul class="tool-list">{rows}</ul>
        </div>
    }
}
