//! Fuzz target `frame`: see `mcpg_fuzz::targets::frame`.

fn main() {
    mcpg_fuzz::main(mcpg_fuzz::targets::frame);
}
