//! Fuzz target `auth_flow`: see `mcpg_fuzz::targets::auth_flow`.

fn main() {
    mcpg_fuzz::main(mcpg_fuzz::targets::auth_flow);
}
