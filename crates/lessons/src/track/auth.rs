//! Authorization: the demo behind OAuth, played inside the page, so the sign-in
//! runs the way it runs against a real server (401, discovery, registration,
//! consent, PKCE, the token), with no network.

use super::basics::{at, done, signed};
use crate::{AuthStep, Check, Choice, Lesson, Model, Provider, Server, Setup};

/// OAuth: a server that wants a token.
pub const OAUTH: Lesson = Lesson {
    slug: "oauth",
    title: "Signing in: OAuth for a protected server",
    goal: "Watch the host earn a token for a protected server (discovery, registration, consent with PKCE, the token exchange) and then run the same loop with it.",
    setup: Setup {
        server: Server::OAuthDemo,
        prompt: "What's the weather in Paris?",
        model: Model::Mock,
        provider: Provider::Anthropic,
        revision: None,
    },
    task: "The lesson connects to the demo behind OAuth, which answers HTTP 401. In the Authorization panel press “Sign in”, then “Approve” on the demo authorization server's consent screen; then run the loop.",
    needs: &[
        signed(
            "Press Sign in: the host reads the server's protected resource metadata",
            AuthStep::ProtectedResourceMetadata,
        ),
        signed(
            "Approve: the host trades the code and its PKCE verifier for a token",
            AuthStep::TokenExchange,
        ),
        done(
            "Run the loop: step 5's result comes from the protected server",
            5,
        ),
    ],
    notice: &[
        at(
            4,
            "params.name",
            "The call is the same JSON-RPC as without OAuth: the token travels in the HTTP Authorization header, not in the message.",
        ),
        at(
            5,
            "result.content[0].text",
            "The protected server answered because the request carried a token its authorization server issued for it.",
        ),
    ],
    pitfalls: &[],
    check: Check::Choice {
        question: "Where did the host send the PKCE code_verifier?",
        choices: &[
            Choice {
                text: "Only to the token endpoint, with the code",
                right: true,
                feedback: "Right: the authorization URL carried only code_challenge (the verifier's SHA-256); the verifier proves at the token endpoint that the client that asked is the one redeeming the code.",
            },
            Choice {
                text: "In the authorization URL, beside the challenge",
                right: false,
                feedback: "Look at the Authorization card's URL: code_challenge is there, the verifier is not.",
            },
            Choice {
                text: "To the MCP server, with each call",
                right: false,
                feedback: "The MCP server gets the access token in the Authorization header and nothing else of the sign-in.",
            },
        ],
    },
};
