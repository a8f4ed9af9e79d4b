//! Fuzz target `sse`: see `mcpg_fuzz::targets::sse`.

fn main() {
    mcpg_fuzz::main(mcpg_fuzz::targets::sse);
}
