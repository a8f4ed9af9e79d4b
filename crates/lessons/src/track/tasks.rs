//! Tasks (2025-11-25): a call the server answers at once with a handle, and finishes
//! later while the host polls.

use super::basics::{at, mock, on_card, on_wire};
use crate::{Check, Choice, Lesson, ProtocolVersion, Provider, Setup};

/// Tasks are a 2025-11-25 feature (2026-07-28 moved them to an extension).
const fn setup(prompt: &'static str) -> Setup {
    let mut s = mock(prompt, Provider::Anthropic);
    s.revision = Some(ProtocolVersion::V2025_11_25);
    s
}

/// A task's life, and when a host polls.
pub const TASKS: Lesson = Lesson {
    slug: "tasks",
    title: "Tasks: answered at once, finished later",
    goal: "See a long call run as a task: the server answers tools/call at once with a task handle, the host polls tasks/get as often as the server asked, and fetches the tool's result with tasks/result once the task is completed.",
    setup: setup("call count_task {\"to\": 4, \"step_ms\": 500}"),
    task: "Run the loop. count_task declares execution.taskSupport \"required\", so step 4 asks for a task (params.task). Step 5 shows the task handle the server answered with, the first tasks/get poll and its answer; while the task runs, its text counts the later polls and says the status. When the task is completed, the host sends tasks/result and the loop goes on.",
    needs: &[
        on_card(
            "Run the loop: step 4 asks tools/call as a task",
            4,
            "params.task",
            None,
        ),
        on_wire(
            "The host polls the task with tasks/get",
            "method",
            Some("\"tasks/get\""),
        ),
        on_wire(
            "The task is completed: the host asks tasks/result",
            "method",
            Some("\"tasks/result\""),
        ),
    ],
    notice: &[
        at(
            5,
            "result.task.pollInterval",
            "The handle, not the result: the server answered at once and asks to be polled every 500 ms. A host that polls faster only loads the server; one that never polls never learns the task ended.",
        ),
        at(
            4,
            "params.task",
            "params.task turns this tools/call into a task; a tool whose taskSupport is \"required\" must be called this way (the demo refuses it otherwise, with -32601).",
        ),
    ],
    pitfalls: &[],
    check: Check::Choice {
        question: "How does the host get the tool's result?",
        choices: &[
            Choice {
                text: "It polls tasks/get at the server's pollInterval, then asks tasks/result once the task is completed",
                right: true,
                feedback: "Right: the tools/call answer was only a handle. The host polls at the interval the server gave (or hears notifications/tasks/status), and the result is the answer to tasks/result.",
            },
            Choice {
                text: "The tools/call response arrives when the count ends",
                right: false,
                feedback: "The tools/call answer came at once, before any counting: look at step 5, it is a CreateTaskResult with a taskId and a status of working.",
            },
            Choice {
                text: "The server sends the result on its own as soon as it is done",
                right: false,
                feedback: "A server may say that the status changed (notifications/tasks/status), but the result is only ever the answer to the host's tasks/result.",
            },
        ],
    },
};
